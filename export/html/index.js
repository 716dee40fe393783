(function () {
  "use strict";
  var table = document.getElementById("sessions");
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  // what a filter looks in: a row's text and its titles (a project's path)
  rows.forEach(function (r) {
    var t = r.textContent;
    Array.prototype.forEach.call(r.querySelectorAll("[title]"), function (e) { t += " " + e.title; });
    r.agtText = t.toLowerCase();
  });
  var filter = document.getElementById("filter");
  var shown = document.getElementById("shown");
  filter.hidden = false;
  function key(cell) {
    return cell.hasAttribute("data-v") ? cell.getAttribute("data-v") : cell.textContent;
  }
  function apply() {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var n = 0;
    rows.forEach(function (r) {
      var ok = words.every(function (w) { return r.agtText.indexOf(w) >= 0; });
      r.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = words.length ? n + " shown" : "";
  }
  filter.addEventListener("input", apply);
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    th.tabIndex = 0;
    function sort() {
      var asc = th.getAttribute("aria-sort") !== "ascending";
      var num = th.getAttribute("data-k") === "n";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      rows.sort(function (a, b) {
        var x = key(a.cells[col]), y = key(b.cells[col]);
        var c = num ? (parseFloat(x) || 0) - (parseFloat(y) || 0) : x.localeCompare(y);
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(); });
  });
}());
