// behavior-judge report page. Untrusted text only ever reaches the DOM through
// textContent; the static report is rendered (and escaped) on the server.
(function () {
  "use strict";

  if (document.body.getAttribute("data-mode") === "live") {
    followProgress();
  } else {
    setUpFilters();
  }

  function setUpFilters() {
    var onlyFailures = document.getElementById("only-failures");
    var ruleFilter = document.getElementById("rule-filter");
    var shownCount = document.getElementById("shown-count");
    if (!onlyFailures || !ruleFilter) return;
    var cards = Array.prototype.slice.call(document.querySelectorAll(".card"));

    function apply() {
      var failuresOnly = onlyFailures.checked;
      var rule = ruleFilter.value;
      var filtering = failuresOnly || rule !== "";
      var shown = 0;
      cards.forEach(function (card) {
        var anyRuleShown = false;
        card.querySelectorAll(".rule").forEach(function (section) {
          var visible =
            (rule === "" || section.getAttribute("data-rule") === rule) &&
            (!failuresOnly ||
              section.getAttribute("data-verdict") === "false" ||
              section.hasAttribute("data-error") ||
              section.hasAttribute("data-disagree"));
          section.hidden = !visible;
          if (visible) anyRuleShown = true;
        });
        // A case whose own verdict disagrees with its label stays, though every rule agrees.
        var cardDisagrees = failuresOnly && rule === "" && card.hasAttribute("data-disagree");
        card.hidden = filtering && !anyRuleShown && !cardDisagrees;
        if (!card.hidden) shown++;
      });
      if (shownCount) {
        shownCount.textContent = "Showing " + shown + " of " + cards.length + (cards.length === 1 ? " trajectory" : " trajectories");
      }
    }

    // A link from the per-rule table lands on a rule in a card; if the filters
    // hide it, clear them first, so the link never leads nowhere.
    function reveal() {
      var id;
      try {
        id = decodeURIComponent(location.hash.slice(1));
      } catch (e) {
        return; // a hand-typed hash that is not valid percent-encoding
      }
      var target = id === "" ? null : document.getElementById(id);
      if (!target || !target.closest(".card")) return;
      if (target.closest("[hidden]")) {
        ruleFilter.value = "";
        apply();
      }
      if (target.closest("[hidden]")) {
        onlyFailures.checked = false;
        apply();
      }
      target.scrollIntoView();
    }

    // "… and N more" in the failed-in column: every card where that rule
    // failed, by the filters (the link's own target is the next of them).
    document.querySelectorAll(".failing-in a.more").forEach(function (more) {
      more.addEventListener("click", function () {
        ruleFilter.value = more.getAttribute("data-rule") || "";
        onlyFailures.checked = true;
        apply();
      });
    });

    onlyFailures.addEventListener("change", apply);
    ruleFilter.addEventListener("change", apply);
    window.addEventListener("hashchange", reveal);
    // Browsers restore form state on reload; make the view match it.
    apply();
    reveal();
  }

  function followProgress() {
    var token = new URLSearchParams(location.search).get("token") || "";
    var status = document.getElementById("live-status");
    var bar = document.getElementById("live-progress");
    var list = document.getElementById("live-list");
    var lastSeq = -1;
    function label(event) {
      if (event.error === true && event.verdict !== "false") return ["error", "Error — no valid model answer"];
      if (event.verdict === "true") return ["pass", "Pass"];
      if (event.verdict === "false") return ["fail", "Fail"];
      if (event.naReason === "not_applicable") return ["na", "Didn't apply"];
      if (event.naReason === "insufficient_evidence") return ["noverdict", "No verdict — insufficient evidence"];
      if (event.verdict === "na") return ["noverdict", "No verdict"];
      return ["na", "Judged"];
    }
    var source = new EventSource("events?token=" + encodeURIComponent(token));

    source.addEventListener("progress", function (message) {
      var event = JSON.parse(message.data);
      // The server replays past events on reconnect; show each once.
      if (typeof event.seq !== "number" || event.seq <= lastSeq) return;
      lastSeq = event.seq;
      var total = typeof event.total === "number" ? event.total : null;
      status.textContent =
        "Judged " +
        event.done +
        (total === null ? "" : " of " + total) +
        " trajectories" +
        (event.message ? ": " + event.message : "");
      bar.max = total === null ? Math.max(event.done, 1) : Math.max(total, 1);
      bar.value = event.done;
      if (event.trajectoryId) {
        var item = document.createElement("li");
        var verdict = document.createElement("span");
        var shown = label(event);
        verdict.className = "badge " + shown[0];
        verdict.textContent = shown[1];
        var name = document.createElement("span");
        name.textContent = " " + event.trajectoryId + (event.file ? " (" + event.file + ")" : "");
        item.appendChild(verdict);
        item.appendChild(name);
        list.appendChild(item);
      }
    });

    source.addEventListener("final", function () {
      source.close();
      status.textContent = "Done. Loading the report…";
      location.reload();
    });
  }
})();
