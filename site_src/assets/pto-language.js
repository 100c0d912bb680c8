/* pto-docs: the language switch keeps the reader's place. Every page's heading anchors are the same in both
   languages, so a language link (Material's selector in the header) gets the page's #anchor as it is followed. */
(function () {
  "use strict";
  function keepHash(event) {
    var link = event.target && event.target.closest ? event.target.closest("a.md-select__link[hreflang]") : null;
    if (!link || !location.hash) return;
    var url = new URL(link.getAttribute("href"), location.href);
    url.hash = location.hash;
    link.href = url.href;
  }
  // capture: before the browser follows the link and before Material's own handlers see the click
  document.addEventListener("click", keepHash, true);
  document.addEventListener("auxclick", keepHash, true);
})();
