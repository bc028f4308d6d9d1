(function () {
  "use strict";
  var items = Array.prototype.slice.call(document.querySelectorAll("article.scenario"));
  var buttons = Array.prototype.slice.call(document.querySelectorAll("button[data-status-filter]"));
  var tag = document.getElementById("tag-filter");
  var text = document.getElementById("text-filter");
  var shown = document.getElementById("shown");
  var none = document.getElementById("none");
  // A page with one trace alone (an agent session's `trace.html`) has no scenario filters.
  if (!tag || !text || !shown || !none) { return; }
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
// Step traces: each timeline is a vertical tab list. Arrow keys, Home and End move through the
// steps; the selected step's panel is shown and its ACL line highlighted in the source.
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll(".timeline[role=tablist]"), function (list) {
    var tabs = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
    var source = document.getElementById(list.getAttribute("data-source"));
    function select(tab, focus) {
      tabs.forEach(function (t) {
        var on = t === tab;
        t.setAttribute("aria-selected", String(on));
        t.tabIndex = on ? 0 : -1;
        document.getElementById(t.getAttribute("aria-controls")).hidden = !on;
      });
      if (source) {
        Array.prototype.forEach.call(source.querySelectorAll(".src-line"), function (line) {
          line.classList.toggle("current", line.getAttribute("data-line") === tab.getAttribute("data-line"));
        });
      }
      if (focus) { tab.focus(); }
    }
    tabs.forEach(function (tab, i) {
      tab.addEventListener("click", function () { select(tab, false); });
      tab.addEventListener("keydown", function (event) {
        var next = null;
        if (event.key === "ArrowDown" || event.key === "ArrowRight") {
          next = tabs[(i + 1) % tabs.length];
        } else if (event.key === "ArrowUp" || event.key === "ArrowLeft") {
          next = tabs[(i - 1 + tabs.length) % tabs.length];
        } else if (event.key === "Home") {
          next = tabs[0];
        } else if (event.key === "End") {
          next = tabs[tabs.length - 1];
        }
        if (next) {
          event.preventDefault();
          select(next, true);
        }
      });
    });
  });
})();
