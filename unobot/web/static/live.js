/* Pages that update themselves, without a client framework: a page whose <main> carries
   data-live-version polls its own address once a second with that version in the
   X-Live-Version header. The server answers 204 when nothing changed (one cheap query, no
   rendering) or the whole page, whose <main> replaces this one's. A page marks itself
   finished with data-live-version="" (a tournament that ended): polling stops. Nothing is
   fetched while the tab is hidden. Other scripts hear "unobot:live" on document after a swap
   (to re-wire what they drew). Why a poll and not server-sent events: the web process learns
   of moves only by reading the database, so an event stream would poll it too, per client,
   behind a connection a proxy may cut; a 204 costs the same query and nothing stays open. */
(function () {
  "use strict";
  var PERIOD = 1000;
  var busy = false;

  function main() {
    return document.getElementById("main");
  }

  function version() {
    var m = main();
    return m ? m.getAttribute("data-live-version") : null;
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("main");
    var m = main();
    if (!fresh || !m) {
      return;
    }
    m.innerHTML = fresh.innerHTML;
    m.setAttribute("data-live-version", fresh.getAttribute("data-live-version") || "");
    if (doc.title) {
      document.title = doc.title;
    }
    document.dispatchEvent(new CustomEvent("unobot:live"));
  }

  function poll() {
    var v = version();
    if (!v) {
      return; // not a live page, or finished
    }
    if (busy || document.hidden) {
      window.setTimeout(poll, PERIOD);
      return;
    }
    busy = true;
    fetch(window.location.href, {
      headers: { "X-Live-Version": v },
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status === 200) {
        return response.text().then(swap);
      }
      return null;
    }).catch(function () {
      /* the site is restarting or the network dropped: try again next period */
    }).then(function () {
      busy = false;
      window.setTimeout(poll, PERIOD);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (version()) {
      window.setTimeout(poll, PERIOD);
    }
  });
})();
