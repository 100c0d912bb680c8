"""Speed-ups that reach into MkDocs and Material, all in one place; each gives byte-identical output and has an
option to turn it off (tests/site compare whole sites built with and without it):

* ``search_fast``: Material's search entries from one pass over the page HTML (option ``fast_search``);
* ``nav_cache``: the navigation drawn once per group of pages (option ``nav_cache``);
* ``markdown_shapes``: page Markdown converted once per shape (option ``markdown_shapes``);
* ``minify``: the theme's indentation and blank lines outside the article removed (always on; pages are
  compared with and without it in tests/site/test_minify.py).
"""
