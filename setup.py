"""Packaging that pyproject.toml cannot say: the page templates (templates/) and the hand-written site sources
(site_src/: the stylesheet) stay at the repository root and ship inside the wheel as the data-only packages
pto_docs/templates and pto_docs/site_src. Code finds them in either place (pto_docs/render/resources.py)."""

from setuptools import find_packages, setup

SHIPPED = {"pto_docs.templates": "templates", "pto_docs.site_src": "site_src"}

setup(
    packages=find_packages(include=["pto_docs", "pto_docs.*"]) + list(SHIPPED),
    package_dir=SHIPPED,
    package_data={"pto_docs": ["schemas/*.json", "i18n/*.yaml", "trace/*.yaml", "site/*.yml", "site/speedups/*.json"],
                  **{name: ["**/*"] for name in SHIPPED}},
)
