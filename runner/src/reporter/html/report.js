(function () {
  "use strict";
  var items = Array.prototype.slice.call(document.querySelectorAll("article.scenario"));
  var buttons = Array.prototype.slice.call(document.querySelectorAll("button[data-status-filter]"));
  var tag = document.getElementById("tag-filter");
  var text = document.getElementById("text-filter");
  var shown = document.getElementById("shown");
  var none = document.getElementById("none");
  var status = "all";
  function apply() {
    var q = text.value.trim().toLowerCase();
    var t = tag.value;
    var count = 0;
    items.forEach(function (item) {
      var tags = JSON.parse(item.getAttribute("data-tags"));
      var ok = (status === "all" || item.getAttribute("data-status") === status) &&
        (t === "" || tags.indexOf(t) >= 0) &&
        (q === "" || item.getAttribute("data-search").indexOf(q) >= 0);
      item.hidden = !ok;
      if (ok) { count += 1; }
    });
    shown.textContent = "Showing " + count + " of " + items.length + " scenarios";
    none.hidden = count !== 0;
  }
  function choose(value) {
    status = value;
    buttons.forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-status-filter") === value));
    });
    apply();
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () { choose(b.getAttribute("data-status-filter")); });
  });
  tag.addEventListener("change", apply);
  text.addEventListener("input", apply);
  // A link to a scenario the filters hide shows everything again, then jumps there.
  function reveal() {
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target && target.hidden) {
      tag.value = "";
      text.value = "";
      choose("all");
      target.scrollIntoView();
    }
  }
  window.addEventListener("hashchange", reveal);
  // A visual comparison's slider wipes from the expected image (left) to the actual one.
  Array.prototype.slice.call(document.querySelectorAll("input.compare-slider")).forEach(function (slider) {
    var compare = slider.parentNode.previousElementSibling;
    slider.addEventListener("input", function () {
      compare.style.setProperty("--pos", slider.value + "%");
    });
  });
  apply();
  reveal();
})();
