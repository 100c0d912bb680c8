/* pto-docs: finding an instruction. The jump box (home page, instruction index: type a mnemonic, Enter opens its
   page, suggestions as you type) answers from search/pto-ids.json, the id lookup pto-docs writes into the site;
   the A–Z index filters its rows by surface, class and the typed prefix. Offline: nothing is fetched from outside
   this site, and without this script the index shows every row. */
(function () {
  "use strict";
  var config = document.getElementById("__config");
  var base = new URL(((config && JSON.parse(config.textContent).base) || ".").replace(/\/?$/, "/"), location.href);
  var ids = null;
  var SUGGEST = 12;

  function norm(text) { return text.toUpperCase().replace(/[^A-Z0-9]/g, ""); }

  function load() {
    if (!ids) {
      ids = fetch(new URL("search/pto-ids.json", base)).then(function (r) { return r.json(); }).then(function (data) {
        var exact = new Map(), mnemonics = [];
        data.entries.forEach(function (e) {  /* [key, url, kind, shown]; kind 0: an instruction */
          if (!exact.has(e[0])) exact.set(e[0], e);
          if (e[2] === 0 && norm(e[3]) === e[0]) mnemonics.push(e);
        });
        mnemonics.sort(function (a, b) { return a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0; });
        return { exact: exact, mnemonics: mnemonics };
      }).catch(function () { ids = null; return null; });
    }
    return ids;
  }

  function matches(index, query) {
    var key = norm(query);
    if (!key) return [];
    return index.mnemonics.filter(function (e) { return e[0].indexOf(key) === 0; });
  }

  function setupJump(form) {
    var input = form.querySelector(".pto-jump__input");
    var list = input && input.list;
    var status = form.querySelector(".pto-jump__status");
    if (!input) return;
    input.addEventListener("focus", load);
    input.addEventListener("input", function () {
      load().then(function (index) {
        if (!index) return;
        var hits = matches(index, input.value).slice(0, SUGGEST);
        if (list) {
          list.textContent = "";
          hits.forEach(function (e) { var o = document.createElement("option"); o.value = e[3]; list.appendChild(o); });
        }
      });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      load().then(function (index) {
        if (!index) return;
        var key = norm(input.value);
        var hit = index.exact.get(key) || (matches(index, input.value).length === 1 ? matches(index, input.value)[0] : null);
        if (hit) { location.href = new URL(hit[1], base).href; return; }
        if (status) status.textContent = input.getAttribute("data-none") || "";
      });
    });
  }

  function setupAz(root) {
    var surface = root.querySelector(".pto-az__surface");
    var klass = root.querySelector(".pto-az__class");
    var input = root.querySelector(".pto-jump__input");
    var count = root.querySelector(".pto-az__count");
    var rows = Array.prototype.slice.call(root.querySelectorAll(".pto-az__row"));
    var groups = Array.prototype.slice.call(root.querySelectorAll(".pto-az__group"));
    var letters = root.querySelectorAll(".pto-az__letters a");
    function apply() {
      var s = surface ? surface.value : "", c = klass ? klass.value : "", q = input ? norm(input.value) : "";
      if (klass) Array.prototype.forEach.call(klass.options, function (o) {
        o.hidden = !!(s && o.value && o.value.split("/")[0] !== s);
      });
      if (c && s && c.split("/")[0] !== s) { klass.value = ""; c = ""; }
      var shown = 0;
      rows.forEach(function (row) {
        var ok = (!s || row.getAttribute("data-surface") === s) && (!c || row.getAttribute("data-class") === c) &&
                 (!q || norm(row.querySelector("code").textContent).indexOf(q) === 0);
        row.hidden = !ok;
        if (ok) shown++;
      });
      groups.forEach(function (g, i) {
        var any = g.querySelector(".pto-az__row:not([hidden])") !== null;
        g.hidden = !any;
        if (letters[i]) letters[i].classList.toggle("pto-az__letter--empty", !any);
      });
      if (count) count.textContent = (count.getAttribute("data-template") || "{count}").replace("{count}", shown);
    }
    [surface, klass].forEach(function (el) { if (el) el.addEventListener("change", apply); });
    if (input) input.addEventListener("input", apply);
    root.classList.add("pto-az--live");
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-pto-jump]"), setupJump);
    Array.prototype.forEach.call(document.querySelectorAll("[data-pto-az]"), setupAz);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
