/* The game page's replay: steps through the steps embedded in #replay-data (drawn by the
   server for step 1, so the page reads without this script). No network, no framework; text
   is only ever set with textContent, never parsed as HTML. */
(function () {
  "use strict";
  var source = document.getElementById("replay-data");
  if (!source) {
    return;
  }
  var data;
  try {
    data = JSON.parse(source.textContent);
  } catch (e) {
    return;
  }
  var steps = data.steps || [];
  var cards = data.cards || {};
  if (!steps.length) {
    return;
  }
  // The page's words in its language (the server fills them in; English when absent).
  var words = data.words || {};
  var COLOURS = words.colours || { r: "red", y: "yellow", g: "green", b: "blue" };
  function say(key, fallback, values) {
    var text = words[key] || fallback;
    Object.keys(values || {}).forEach(function (name) {
      text = text.split("{" + name + "}").join(String(values[name]));
    });
    return text;
  }
  function cardCount(n) {
    var counts = words.cards || {};
    return counts[n] || n + (n === 1 ? " card" : " cards");
  }
  var byId = function (id) {
    return document.getElementById(id);
  };
  var buttons = {
    first: byId("replay-first"),
    prev: byId("replay-prev"),
    next: byId("replay-next"),
    last: byId("replay-last"),
  };
  var index = 0;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function card(code) {
    var view = cards[code] || { css: "card-w", face: "?", label: "unknown card " + code, letter: "?" };
    var node = el("span", "card " + view.css);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", view.label);
    node.setAttribute("data-letter", view.letter);
    var face = el("span", view.face_class || "card-face", view.face);
    face.setAttribute("aria-hidden", "true");
    node.appendChild(face);
    return node;
  }

  function replace(parent, children) {
    while (parent.firstChild) {
      parent.removeChild(parent.firstChild);
    }
    children.forEach(function (child) {
      parent.appendChild(child);
    });
  }

  function hand(h, current) {
    var box = el("div", "hand" + (h.nick === current ? " current" : ""));
    box.setAttribute("data-nick", h.nick);
    var name = el("p", "hand-name");
    name.appendChild(el("strong", "", h.nick));
    name.appendChild(document.createTextNode(" "));
    var count = h.cards.length;
    name.appendChild(el("span", "muted", cardCount(count)));
    if (h.nick === current) {
      name.appendChild(el("span", "to-play", say("to_play", "to play")));
    }
    box.appendChild(name);
    var row = el("div", "cards");
    h.cards.forEach(function (code) {
      row.appendChild(card(code));
    });
    box.appendChild(row);
    return box;
  }

  function show(i) {
    index = Math.max(0, Math.min(steps.length - 1, i));
    var step = steps[index];
    byId("replay-step").textContent = say("step", "Step {n} of {total}", {
      n: index + 1,
      total: steps.length
    });
    replace(byId("replay-top"), step.top ? [card(step.top)] : [el("span", "muted", say("empty", "empty"))]);
    var colour = byId("replay-color");
    colour.textContent =
      step.top && step.top.charAt(0) === "W" && COLOURS[step.color]
        ? say("colour", "Colour chosen: {colour}", { colour: COLOURS[step.color] })
        : "";
    var turn = byId("replay-turn");
    replace(turn, []);
    if (step.current) {
      // "To play: {nick}" around the bold nick, in the sentence order of the language.
      var parts = say("turn", "To play: {nick}").split("{nick}");
      turn.appendChild(document.createTextNode(parts[0]));
      turn.appendChild(el("strong", "", step.current));
      turn.appendChild(document.createTextNode(parts.slice(1).join("")));
    }
    replace(
      byId("replay-lines"),
      step.lines.map(function (line) {
        return el("li", "", line);
      })
    );
    replace(
      byId("replay-notices"),
      step.notices.map(function (n) {
        var item = el("li");
        item.appendChild(el("span", "muted", say("to", "to {nick}:", { nick: n.nick })));
        item.appendChild(document.createTextNode(" " + n.text));
        return item;
      })
    );
    replace(
      byId("replay-hands"),
      step.hands.map(function (h) {
        return hand(h, step.current);
      })
    );
    var scores = byId("replay-scores");
    replace(
      scores,
      step.scores.map(function (s) {
        return el("li", "", s.nick + ": " + s.score);
      })
    );
    byId("replay-score-box").hidden = !step.scores.length;
    var atStart = index === 0;
    var atEnd = index === steps.length - 1;
    // aria-disabled, not disabled: a button that keeps focus at either end of the game.
    [buttons.first, buttons.prev].forEach(function (b) {
      b.disabled = false;
      b.setAttribute("aria-disabled", String(atStart));
    });
    [buttons.next, buttons.last].forEach(function (b) {
      b.disabled = false;
      b.setAttribute("aria-disabled", String(atEnd));
    });
    if (window.history && window.history.replaceState) {
      var here = window.location.pathname + window.location.search;
      window.history.replaceState(null, "", index ? here + "#step-" + (index + 1) : here);
    }
  }

  buttons.first.addEventListener("click", function () {
    show(0);
  });
  buttons.prev.addEventListener("click", function () {
    show(index - 1);
  });
  buttons.next.addEventListener("click", function () {
    show(index + 1);
  });
  buttons.last.addEventListener("click", function () {
    show(steps.length - 1);
  });
  byId("replay").addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea" || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: steps.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });

  var match = /^#step-(\d+)$/.exec(window.location.hash);
  show(match ? parseInt(match[1], 10) - 1 : 0);
})();
