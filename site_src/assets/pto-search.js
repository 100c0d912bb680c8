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
        var quick = ((data.quick || {})[lang] || (data.quick || {}).en || []).map(function (e) {
          return { url: e[0], title: e[1], text: e[2], hay: (e[1] + " " + e[2]).toLowerCase(), key: e[1].toLowerCase() };
        });
        index = { map: map, kinds: data.kinds[lang] || data.kinds.en, exact: data.exact[lang] || data.exact.en,
                  quick: quick, quickLabel: (data.quick_label || {})[lang] || "" };
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

  /* One result in Material's own markup (its styles apply); text only, never HTML. */
  function resultItem(cls, url, title, text) {
    var li = document.createElement("li");
    li.className = "md-search-result__item " + cls;
    var a = document.createElement("a");
    a.className = "md-search-result__link";
    a.href = new URL(url, base).href;
    var article = document.createElement("article");
    article.className = "md-search-result__article md-typeset";
    var h = document.createElement("h1");
    h.textContent = title;
    var p = document.createElement("p");
    p.textContent = text;
    article.appendChild(h);
    article.appendChild(p);
    a.appendChild(article);
    li.appendChild(a);
    return li;
  }

  function render(query) {
    var el = box();
    if (!el || !index) return;
    current = query ? (index.map.get(norm(query)) || []) : [];
    var list = el.querySelector(".pto-exact__list");
    list.textContent = "";
    current.forEach(function (e) {
      list.appendChild(resultItem("pto-exact__item", e[1], e[3], index.kinds[e[2]] || ""));
    });
    el.querySelector(".pto-exact__meta").textContent = index.exact;
    el.hidden = current.length === 0;
  }

  /* Quick matches: every word of the query in a page's title or summary (case-insensitive; a Chinese query as
     one substring), shown at once while Material's full-text index is still being built in the browser, and
     taken away as soon as Material shows its own results. */
  var QUICK_MAX = 8;

  function quickMatches(query) {
    var words = query.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 1 || /[^\x00-\x7f]/.test(w); });
    if (!words.length) return [];
    var hits = [];
    index.quick.forEach(function (e) {
      for (var i = 0; i < words.length; i++) if (e.hay.indexOf(words[i]) < 0) return;
      var score = words.every(function (w) { return e.key.indexOf(w) >= 0; }) ? 0 : 1;
      hits.push([score, e.title.length, e]);
    });
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    return hits.slice(0, QUICK_MAX).map(function (h) { return h[2]; });
  }

  function materialShowsResults() {
    return document.querySelectorAll(".md-search-result__list:not(.pto-exact__list) > .md-search-result__item").length > 0;
  }

  function renderQuick(query) {
    var el = box();
    if (!el || !index) return;
    var quick = el.querySelector(".pto-quick");
    if (!quick) {
      quick = document.createElement("div");
      quick.className = "pto-quick";
      quick.innerHTML = '<div class="md-search-result__meta pto-quick__meta"></div><ol class="md-search-result__list pto-exact__list pto-quick__list" role="presentation"></ol>';
      el.appendChild(quick);
    }
    var hits = query && !current.length && !materialShowsResults() ? quickMatches(query) : [];
    var list = quick.querySelector(".pto-quick__list");
    list.textContent = "";
    hits.forEach(function (e) {
      var text = e.text.length > 160 ? e.text.slice(0, 157) + "…" : e.text;
      list.appendChild(resultItem("pto-quick__item", e.url, e.title, text));
    });
    quick.querySelector(".pto-quick__meta").textContent = index.quickLabel;
    quick.hidden = hits.length === 0;
    if (hits.length) el.hidden = false;
  }

  var watching = false;
  function watchMaterial() {
    if (watching) return;
    var result = document.querySelector(".md-search-result");
    if (!result || !window.MutationObserver) return;
    watching = true;
    new MutationObserver(function () {
      var quick = document.querySelector(".pto-quick");
      if (quick && !quick.hidden && materialShowsResults()) {
        quick.hidden = true;
        var el = box();
        if (el && !current.length) el.hidden = true;
      }
    }).observe(result, { childList: true, subtree: true });
  }

  function onInput(event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches("input.md-search__input")) return;
    var query = input.value.trim();
    watchMaterial();
    if (index) { render(query); renderQuick(query); }
    else load().then(function () { var q = input.value.trim(); render(q); renderQuick(q); });
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
