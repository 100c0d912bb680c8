/* pto-docs: exact ids first. An instruction mnemonic, unit id, requirement id, test id or ADR id typed into the
   search box is looked up in search/pto-ids.json (written by pto-docs, fetched once, on first use) and shown
   above Material's full-text results, at once; Enter opens it. No network access beyond this site. */
(function () {
  "use strict";
  var config = document.getElementById("__config");
  if (!config) return;
  var base = new URL((JSON.parse(config.textContent).base || ".").replace(/\/?$/, "/"), location.href);
  var lang = document.documentElement.lang === "zh-CN" ? "zh-CN" : "en";
  var index = null, loading = null, current = [];

  function norm(text) { return text.toUpperCase().replace(/[^A-Z0-9]/g, ""); }

  function load() {
    if (!loading) {
      loading = fetch(new URL("search/pto-ids.json", base)).then(function (r) { return r.json(); }).then(function (data) {
        var map = new Map();
        data.entries.forEach(function (e) {
          if (!map.has(e[0])) map.set(e[0], []);
          map.get(e[0]).push(e);
        });
        index = { map: map, kinds: data.kinds[lang] || data.kinds.en, exact: data.exact[lang] || data.exact.en };
        return index;
      }).catch(function () { loading = null; });
    }
    return loading;
  }

  function box() {
    var result = document.querySelector(".md-search-result");
    if (!result) return null;
    var el = result.querySelector(".pto-exact");
    if (!el) {
      el = document.createElement("div");
      el.className = "pto-exact";
      el.hidden = true;
      el.innerHTML = '<div class="md-search-result__meta pto-exact__meta"></div><ol class="md-search-result__list pto-exact__list" role="presentation"></ol>';
      result.insertBefore(el, result.firstChild);
    }
    return el;
  }

  function render(query) {
    var el = box();
    if (!el || !index) return;
    current = query ? (index.map.get(norm(query)) || []) : [];
    var list = el.querySelector(".pto-exact__list");
    list.textContent = "";
    current.forEach(function (e) {
      var li = document.createElement("li");
      li.className = "md-search-result__item pto-exact__item";
      var a = document.createElement("a");
      a.className = "md-search-result__link";
      a.href = new URL(e[1], base).href;
      var article = document.createElement("article");
      article.className = "md-search-result__article md-typeset";
      var h = document.createElement("h1");
      h.textContent = e[3];
      var p = document.createElement("p");
      p.textContent = index.kinds[e[2]] || "";
      article.appendChild(h);
      article.appendChild(p);
      a.appendChild(article);
      li.appendChild(a);
      list.appendChild(li);
    });
    el.querySelector(".pto-exact__meta").textContent = index.exact;
    el.hidden = current.length === 0;
  }

  function onInput(event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches("input.md-search__input")) return;
    var query = input.value.trim();
    if (index) render(query);
    else load().then(function () { render(input.value.trim()); });
  }

  document.addEventListener("input", onInput, true);
  document.addEventListener("focusin", function (event) {
    if (event.target && event.target.matches && event.target.matches("input.md-search__input")) load();
  }, true);
  window.addEventListener("keydown", function (event) {
    var input = document.activeElement;
    if (event.key !== "Enter" || !current.length || !input || !input.matches("input.md-search__input")) return;
    if (norm(input.value) !== current[0][0]) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    location.href = new URL(current[0][1], base).href;
  }, true);
})();
