// behavior-judge interview page. The server holds the interview; this script
// only shows the current view and posts the person's answers. Every piece of
// text from the spec, the draft or the trajectories reaches the DOM through
// textContent, never as HTML.
(function () {
  "use strict";

  var token = new URLSearchParams(location.search).get("token") || "";
  var view = null;
  var busy = false;

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function fillList(list, items) {
    clear(list);
    items.forEach(function (text) {
      list.appendChild(el("li", "", text));
    });
  }

  function showError(message) {
    var box = $("error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  function request(path, options) {
    return fetch(path + "?token=" + encodeURIComponent(token), options).then(function (res) {
      return res.json().then(
        function (data) {
          return { status: res.status, data: data };
        },
        function () {
          return { status: res.status, data: {} };
        },
      );
    });
  }

  function load() {
    request("state", { cache: "no-store" })
      .then(function (reply) {
        if (reply.data.view) render(reply.data.view);
        else showError("The interview could not be loaded (status " + reply.status + ").");
      })
      .catch(function () {
        showError("The interview server is not reachable. Is behavior-judge still running?");
      });
  }

  // `at` names the question this page shows, so the server ignores an answer meant for another one.
  function send(action) {
    if (busy || !view) return Promise.resolve(false);
    busy = true;
    setBusy(true);
    var at = view.kind === "review" ? "review" : view.question;
    return request("action", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ at: at, action: action }),
    })
      .then(function (reply) {
        busy = false;
        setBusy(false);
        var data = reply.data;
        if (data.done) {
          showDone();
          return true;
        }
        if (data.refused && action.type === "edit") {
          showError(data.error || "The edit was not accepted.");
          showDiagnostics(data.diagnostics || []);
          return false;
        }
        if (data.view) render(data.view);
        var ok = reply.status === 200 && !data.refused;
        showError(ok ? "" : data.error || "The server refused that (status " + reply.status + ").");
        return ok;
      })
      .catch(function () {
        busy = false;
        setBusy(false);
        showError("The interview server is not reachable. Is behavior-judge still running?");
        return false;
      });
  }

  function setBusy(on) {
    Array.prototype.forEach.call(document.querySelectorAll("button"), function (button) {
      button.disabled = on || button.getAttribute("data-off") === "1";
    });
  }

  function setEnabled(button, enabled) {
    button.setAttribute("data-off", enabled ? "0" : "1");
    button.disabled = !enabled;
  }

  function render(next) {
    view = next;
    closePanels();
    if (next.kind === "review") renderReview(next);
    else renderQuestion(next);
    window.scrollTo(0, 0);
  }

  function renderQuestion(q) {
    $("review").hidden = true;
    $("question").hidden = false;
    $("progress").textContent = "Question " + q.number + " of " + q.total;
    $("rule-position").textContent = "Rule " + q.rule.number + " of " + q.rule.total + ":";
    $("rule-name").textContent = q.rule.name;
    $("rule-origin").textContent = originLabel(q.rule.origin);
    $("clause-label").textContent = q.label;
    $("quote").hidden = q.quote === undefined;
    $("quote").textContent = q.quote === undefined ? "" : q.quote;
    $("section-body").textContent = q.rule.section;
    $("drafted-yaml").textContent = q.draftedYaml;
    var changed = q.currentYaml !== undefined && q.currentYaml !== q.draftedYaml;
    $("current").hidden = !changed;
    $("current-yaml").textContent = changed ? q.currentYaml : "";
    $("decision").textContent = q.decisionLabel;
    fillList($("notes"), q.notes);
    $("notes-box").hidden = q.notes.length === 0;
    fillList($("warnings"), q.warnings);
    $("warnings-box").hidden = q.warnings.length === 0;
    renderEvidence(q.evidence);
    q.choices.forEach(function (c) {
      $("choice-" + c.choice).textContent = c.label;
    });
    $("semantic-label").textContent =
      q.clause.kind === "trigger"
        ? "When does the rule apply? A model decides this for each trajectory."
        : 'A yes/no question; "yes" means the clause is satisfied.';
    setEnabled($("back"), q.canBack);
    setEnabled($("forward"), true);
    $("forward").textContent = q.decision === undefined ? "Skip ahead →" : "Keep my answer →";
  }

  function originLabel(origin) {
    if (origin === "model") return "drafted by the model";
    if (origin === "offline") return "drafted offline";
    if (origin === "carried") return "carried over";
    return "";
  }

  function renderEvidence(evidence) {
    var box = $("evidence");
    clear(box);
    if (evidence.semantic) {
      $("evidence-summary").textContent = "A model answers this when judging, so there are no matching events to show.";
      return;
    }
    var parts = evidence.roles.map(function (r) {
      return r.role + ": " + r.matches + (r.matches === 1 ? " event" : " events");
    });
    var summary = parts.join(" · ");
    var unmatched = evidence.roles.filter(function (r) {
      return r.matches === 0;
    });
    if (unmatched.length > 0) {
      summary +=
        ". No sample event matches " +
        unmatched
          .map(function (r) {
            return r.role;
          })
          .join(", ") +
        ".";
    }
    if (evidence.samplesWithoutMatches > 0) {
      summary += " " + evidence.samplesWithoutMatches + " sample(s) have no matching event.";
    }
    $("evidence-summary").textContent = summary;
    evidence.groups.forEach(function (group) {
      var section = el("section", "evidence-group");
      section.setAttribute("data-trajectory", group.trajectoryId);
      var title = el("h4", "", group.trajectoryId);
      if (!group.complete) title.appendChild(el("span", "tag", "incomplete"));
      section.appendChild(title);
      var table = el("table", "events");
      var head = el("tr");
      ["Event", "Matches", "Actor", "Action", "Content", "Metadata"].forEach(function (h) {
        head.appendChild(el("th", "", h));
      });
      table.appendChild(head);
      group.events.forEach(function (event) {
        var row = el("tr", "event");
        row.appendChild(el("td", "event-id", event.id));
        var roles = el("td");
        event.roles.forEach(function (role) {
          roles.appendChild(el("span", "role", role));
        });
        row.appendChild(roles);
        row.appendChild(el("td", "", event.actor));
        row.appendChild(el("td", "", event.action));
        row.appendChild(el("td", "content", event.excerpt));
        var metadata = Object.keys(event.metadata)
          .map(function (key) {
            return key + ": " + event.metadata[key];
          })
          .join(", ");
        row.appendChild(el("td", "", metadata));
        table.appendChild(row);
      });
      section.appendChild(table);
      if (group.omitted > 0) section.appendChild(el("p", "muted", "… and " + group.omitted + " more"));
      box.appendChild(section);
    });
  }

  function renderReview(r) {
    $("question").hidden = true;
    $("review").hidden = false;
    $("progress").textContent = "Review: " + r.questionsAsked + " question(s) asked";
    fillList($("review-problems"), r.problems);
    fillList($("review-notices"), r.notices);
    var list = $("review-answers");
    clear(list);
    r.answers.forEach(function (a) {
      var item = el("li", "", a.ruleName + " — " + a.label + ": " + a.decisionLabel);
      var change = el("button", "", "Change");
      change.type = "button";
      change.addEventListener("click", function () {
        send({ type: "goto", question: a.question });
      });
      item.appendChild(change);
      list.appendChild(item);
    });
    $("review-yaml").textContent = r.yaml;
    setEnabled($("review-back"), r.canBack);
    setEnabled($("confirm"), r.canConfirm);
  }

  function showDone() {
    $("question").hidden = true;
    $("review").hidden = true;
    $("done").hidden = false;
    $("progress").textContent = "Done";
    showError("");
  }

  function closePanels() {
    $("edit-panel").hidden = true;
    $("semantic-panel").hidden = true;
    clear($("edit-diagnostics"));
  }

  function showDiagnostics(diagnostics) {
    fillList(
      $("edit-diagnostics"),
      diagnostics.map(function (d) {
        return d.text;
      }),
    );
  }

  $("choice-accept").addEventListener("click", function () {
    send({ type: "accept" });
  });
  $("choice-drop").addEventListener("click", function () {
    send({ type: "drop" });
  });
  $("choice-edit").addEventListener("click", function () {
    closePanels();
    $("edit-text").value = view.editText;
    $("edit-panel").hidden = false;
    $("edit-text").focus();
  });
  $("edit-save").addEventListener("click", function () {
    clear($("edit-diagnostics"));
    send({ type: "edit", text: $("edit-text").value });
  });
  $("edit-cancel").addEventListener("click", closePanels);
  $("choice-semantic").addEventListener("click", function () {
    closePanels();
    $("semantic-text").value = view.suggestedQuestion;
    $("semantic-panel").hidden = false;
    $("semantic-text").focus();
  });
  $("semantic-save").addEventListener("click", function () {
    send({ type: "semantic", question: $("semantic-text").value });
  });
  $("semantic-cancel").addEventListener("click", closePanels);
  $("back").addEventListener("click", function () {
    send({ type: "back" });
  });
  $("forward").addEventListener("click", function () {
    send({ type: "forward" });
  });
  $("review-back").addEventListener("click", function () {
    send({ type: "back" });
  });
  $("confirm").addEventListener("click", function () {
    send({ type: "confirm" });
  });
  // Ends the interview without writing: generate exits instead of waiting for a tab that was closed.
  $("cancel").addEventListener("click", function () {
    request("cancel", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }).then(function (reply) {
      if (!reply.data.cancelled) return showError("The server refused that (status " + reply.status + ").");
      $("question").hidden = true;
      $("review").hidden = true;
      $("cancelled").hidden = false;
      $("progress").textContent = "Cancelled";
      showError("");
    });
  });

  load();
})();
