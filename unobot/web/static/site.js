/* The colour-blind option: adds the colour's letter and a pattern to every card (CSS class
   "cb" on <html>), remembered in localStorage. Loaded in <head> so the class is set before
   the cards are drawn; the checkbox is wired once the page is read. */
(function () {
  "use strict";
  var KEY = "unobot-colorblind";

  function stored() {
    try {
      return window.localStorage.getItem(KEY) === "1";
    } catch (e) {
      return false; // storage refused (private mode): the option lasts for this page only
    }
  }

  function apply(on) {
    document.documentElement.classList.toggle("cb", on);
  }

  apply(stored());
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("colorblind");
    if (!box) {
      return;
    }
    box.checked = stored();
    box.addEventListener("change", function () {
      apply(box.checked);
      try {
        window.localStorage.setItem(KEY, box.checked ? "1" : "0");
      } catch (e) {
        /* not remembered, still applied */
      }
    });
  });
})();
