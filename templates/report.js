// behavior-judge report page. Untrusted text only ever reaches the DOM through
// textContent; the static report is rendered (and escaped) on the server.
(function () {
  "use strict";

  if (document.body.getAttribute("data-mode") === "live") {
    followProgress();
  } else {
    setUpFilters();
    setUpRelabel();
  }

  // "Verdict is wrong?": a card's labels, corrected by a person, saved as a
  // labeled case file {trajectory, expected, proposedBy} that calibrate reads.
  // The file is made in the page (a Blob); nothing is sent anywhere.
  function setUpRelabel() {
    document.querySelectorAll("details.relabel").forEach(function (panel) {
      var data;
      try {
        data = JSON.parse(panel.getAttribute("data-case") || "");
      } catch (e) {
        return;
      }
      var verdict = panel.querySelector("select.verdict-label");
      var rules = Array.prototype.slice.call(panel.querySelectorAll("select[data-rule-index]"));
      var button = panel.querySelector("button.save-label");
      var status = panel.querySelector(".save-status");
      var verdictTouched = false;
      function mark(select) {
        select.classList.toggle("changed", select.value !== select.getAttribute("data-proposed"));
      }
      // The trajectory verdict follows the rule labels as the judge folds verdicts (any Fail fails; all N/A
      // is N/A; else Pass; unlabeled rules left out) until it is set by hand.
      function fold() {
        if (verdictTouched) return;
        var values = rules
          .map(function (r) {
            return r.value;
          })
          .filter(function (v) {
            return v !== "";
          });
        if (values.length === 0) verdict.value = verdict.getAttribute("data-proposed") || "";
        else if (values.indexOf("false") >= 0) verdict.value = "false";
        else if (values.indexOf("true") >= 0) verdict.value = "true";
        else verdict.value = "na";
        mark(verdict);
      }
      rules.forEach(function (select) {
        select.addEventListener("change", function () {
          mark(select);
          fold();
        });
      });
      verdict.addEventListener("change", function () {
        verdictTouched = true;
        mark(verdict);
      });
      button.addEventListener("click", function () {
        var expected = {};
        if (verdict.value !== "") expected.verdict = verdict.value;
        expected.metaBehaviorVerdicts = {};
        rules.forEach(function (select) {
          var name = data.rules[Number(select.getAttribute("data-rule-index"))];
          if (select.value !== "" && typeof name === "string") expected.metaBehaviorVerdicts[name] = select.value;
        });
        if (!("verdict" in expected) && Object.keys(expected.metaBehaviorVerdicts).length === 0) {
          status.textContent = "Nothing is labeled: choose a label first.";
          return;
        }
        var file = { trajectory: data.trajectory, expected: expected, proposedBy: data.proposedBy };
        var blob = new Blob([JSON.stringify(file, null, 2) + "\n"], { type: "application/json" });
        var url = URL.createObjectURL(blob);
        var link = document.createElement("a");
        link.href = url;
        link.download = panel.getAttribute("data-file") || "case.json";
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(function () {
          URL.revokeObjectURL(url);
        }, 0);
        status.textContent = "Saved " + link.download + ": put it with your labeled cases for calibrate.";
      });
    });
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
