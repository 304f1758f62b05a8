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

  /* Tables too wide for the screen scroll inside their box: mark the box (.scrolls shows the
     hint under it) and the sides it can still scroll to (.more-right / .more-left fade that
     edge), so a cut-off column reads as "more this way", not as the end of the table. */
  function markScroll(box) {
    var room = box.scrollWidth - box.clientWidth;
    box.classList.toggle("scrolls", room > 1);
    box.classList.toggle("more-right", room > 1 && box.scrollLeft < room - 1);
    box.classList.toggle("more-left", room > 1 && box.scrollLeft > 1);
  }

  function markAll() {
    Array.prototype.forEach.call(document.querySelectorAll(".table-scroll"), markScroll);
  }

  function wireAll() {
    markAll();
    Array.prototype.forEach.call(document.querySelectorAll(".table-scroll"), function (box) {
      box.addEventListener("scroll", function () {
        markScroll(box);
      }, { passive: true });
    });
  }

  // A live page's <main> was replaced (static/live.js): its boxes are new.
  document.addEventListener("unobot:live", wireAll);

  document.addEventListener("DOMContentLoaded", function () {
    wireAll();
    window.addEventListener("resize", markAll);
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
