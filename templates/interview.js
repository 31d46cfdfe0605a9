// behavior-judge interview page. The server holds the interview; this script
// only shows the current view and posts the person's answers. Every piece of
// text from the spec, the draft or the trajectories reaches the DOM through
// textContent, never as HTML.
(function () {
  "use strict";

  var token = new URLSearchParams(location.search).get("token") || "";
  var view = null;
  var busy = false;
  // The structured edit in progress: the forms by kind, which one is shown, and what was changed last.
  var editing = null;
  var previewTimer = null;
  var previewSeq = 0;

  // The pattern fields of each check type, as in compiler/interview/fields.ts.
  var ROLES = {
    ordering: ["first", "before"],
    pairing: ["each", "followedBy"],
    required: ["match"],
    forbidden: ["match"],
    count: ["match"],
    condition: ["each"],
  };
  var TYPES = ["ordering", "pairing", "required", "forbidden", "count", "condition"];
  var WINDOWED = { required: true, forbidden: true, count: true };
  var ROLE_HELP = {
    first: "first: what must happen first",
    before: "before: what it must come before",
    each: "each: every such event…",
    followedBy: "followedBy: …is later followed by one of these",
    match: "match: the events checked",
    after: "after: a window; only events after its first match count",
  };

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
    showNotice("");
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
        if (data.refused && (action.type === "edit" || action.type === "edit-form")) {
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
    $("verdict").hidden = next.kind !== "verdict";
    if (next.kind === "verdict") renderVerdict(next);
    else if (next.kind === "review") renderReview(next);
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
    renderPreview($("preview-body"), q.preview, "question");
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

  // A verdict question: the sample's events and the rule's section, answered yes / no / n.a. / skip.
  function renderVerdict(v) {
    $("review").hidden = true;
    $("question").hidden = true;
    $("progress").textContent = "Verdict question " + v.number + " (" + v.open + " open)";
    $("verdict-rule").textContent = v.rule.name;
    $("verdict-text").textContent = v.text;
    $("verdict-section").textContent = v.rule.section;
    var s = v.sample;
    var total = s.events.length + s.omitted;
    $("verdict-sample").textContent = s.id + (s.complete ? "" : " (incomplete)") + ": " + total + (total === 1 ? " event" : " events");
    var box = $("verdict-events");
    clear(box);
    var table = el("table", "events");
    var head = el("tr");
    ["Event", "Actor", "Action", "Content", "Metadata"].forEach(function (h) {
      head.appendChild(el("th", "", h));
    });
    table.appendChild(head);
    s.events.forEach(function (event) {
      var row = el("tr", "event");
      row.appendChild(el("td", "event-id", event.id));
      row.appendChild(el("td", "", event.actor));
      row.appendChild(el("td", "", event.action));
      row.appendChild(el("td", "content", event.excerpt));
      row.appendChild(
        el(
          "td",
          "",
          Object.keys(event.metadata)
            .map(function (key) {
              return key + ": " + event.metadata[key];
            })
            .join(", "),
        ),
      );
      table.appendChild(row);
    });
    box.appendChild(table);
    if (s.omitted > 0) box.appendChild(el("p", "muted", "… and " + s.omitted + " more"));
    $("verdict-readings").textContent =
      "The draft reads the rule as " + v.readings.draft + " here; another reading that fits every label, as " + v.readings.other + ".";
  }

  function answerVerdict(answer) {
    if (busy || !view || view.kind !== "verdict") return;
    busy = true;
    setBusy(true);
    request("verdict", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sample: view.sample.id, rule: view.rule.name, answer: answer }),
    })
      .then(function (reply) {
        busy = false;
        setBusy(false);
        var data = reply.data;
        if (data.view) render(data.view);
        showNotice(data.previous || "");
        showError(reply.status === 200 ? "" : data.error || "The server refused that (status " + reply.status + ").");
      })
      .catch(function () {
        busy = false;
        setBusy(false);
        showError("The interview server is not reachable. Is behavior-judge still running?");
      });
  }

  function showNotice(message) {
    $("notice").textContent = message;
    $("notice").hidden = !message;
  }

  function originLabel(origin) {
    if (origin === "model") return "drafted by the model";
    if (origin === "offline") return "drafted offline";
    if (origin === "carried") return "carried over";
    return "";
  }

  function renderEvidence(evidence, prefix) {
    var box = $("evidence");
    clear(box);
    if (evidence.semantic) {
      $("evidence-summary").textContent = (prefix || "") + "A model answers this when judging, so there are no matching events to show.";
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
    $("evidence-summary").textContent = (prefix || "") + summary;
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

  function namesText(ids) {
    return ids.length + (ids.length > 0 ? " (" + ids.join(", ") + ")" : "");
  }

  function verdictRow(table, label, samples, cls) {
    var row = el("tr", cls);
    row.appendChild(el("th", "", label));
    row.appendChild(el("td", cls + "-pass pass", namesText(samples.pass)));
    row.appendChild(el("td", cls + "-fail" + (samples.fail.length > 0 ? " fail" : ""), namesText(samples.fail)));
    row.appendChild(el("td", cls + "-na na", namesText(samples.na)));
    table.appendChild(row);
  }

  function verdictTable() {
    var table = el("table", "verdicts");
    var head = el("tr");
    ["", "Pass", "Fail", "n.a."].forEach(function (h) {
      head.appendChild(el("th", "", h));
    });
    table.appendChild(head);
    return table;
  }

  function warningList(warnings) {
    var list = el("ul", "preview-warnings");
    list.setAttribute("role", "alert");
    warnings.forEach(function (w) {
      var item = el("li", "warning", "Warning: " + w.message);
      item.setAttribute("data-kind", w.kind);
      list.appendChild(item);
    });
    return list;
  }

  // How the rule (as the answers leave it, or with the edit being typed) judges the samples, and what to look at.
  function renderPreview(box, p, mode) {
    clear(box);
    var n = p.samples.length;
    var samples = n + (n === 1 ? " sample" : " samples");
    box.appendChild(
      el("p", "muted", mode === "edit" ? "With your edit (not saved yet), on " + samples + ":" : "On " + samples + ", as your answers leave the rule:"),
    );
    if (!p.rule) {
      box.appendChild(el("p", "dropped", "The rule is dropped: " + p.dropped + "."));
      return;
    }
    box.appendChild(
      el(
        "p",
        "trigger-line",
        p.trigger.semantic
          ? "The trigger is semantic: a model decides where the rule applies, so without one the rule is n.a."
          : "The trigger fires on " + namesText(p.trigger.fires) + "; not on " + namesText(p.trigger.silent) + ".",
      ),
    );
    var table = verdictTable();
    verdictRow(table, "The rule", p.rule, "v-rule");
    if (p.clause) verdictRow(table, "This clause", p.clause, "v-clause");
    box.appendChild(table);
    if (p.warnings.length > 0) box.appendChild(warningList(p.warnings));
    if (mode === "question" && p.widenedTrigger) {
      var widen = el("button", "", "Widen the trigger");
      widen.type = "button";
      widen.id = "widen";
      widen.addEventListener("click", function () {
        send({ type: "widen" });
      });
      var line = el("p", "widen");
      line.appendChild(widen);
      line.appendChild(el("span", "muted", " to match " + p.widenedTrigger + ", so every check is judged where its events are."));
      box.appendChild(line);
    }
  }

  function renderReviewPreview(r) {
    var box = $("review-preview");
    clear(box);
    r.preview.forEach(function (rule) {
      var section = el("section", "rule-preview");
      section.appendChild(el("h4", "", rule.name));
      section.appendChild(
        el(
          "p",
          "muted",
          rule.trigger.semantic
            ? "The trigger is semantic: a model decides where the rule applies."
            : "The trigger fires on " + namesText(rule.trigger.fires) + ".",
        ),
      );
      var table = verdictTable();
      verdictRow(table, "The rule", rule.rule, "v-rule");
      rule.clauses.forEach(function (c) {
        verdictRow(table, c.label, c.samples, "v-clause");
      });
      section.appendChild(table);
      if (rule.warnings.length > 0) section.appendChild(warningList(rule.warnings));
      box.appendChild(section);
    });
  }

  // ---------------------------------------------------------------------------
  // The structured edit

  function emptyMatcher() {
    return { action: "", actor: "", contentIncludes: "", content: "", metadata: "" };
  }

  function emptyBinding() {
    return { name: "", side: "latest", pattern: [emptyMatcher()], on: "" };
  }

  function copy(value) {
    return JSON.parse(JSON.stringify(value));
  }

  // A new type keeps the patterns by position; a leftover one becomes the window (and back).
  function retype(form, type) {
    var old = ROLES[form.type].map(function (role) {
      return form.patterns[role] || [];
    });
    if (old.length === 1 && form.after.length > 0) old.push(form.after);
    var patterns = {};
    ROLES[type].forEach(function (role, i) {
      patterns[role] = old[i] || [emptyMatcher()];
    });
    var after = form.after;
    if (ROLES[type].length === 1 && after.length === 0) {
      var spare = old.slice(1).filter(function (p) {
        return p.length > 0;
      })[0];
      if (spare) after = spare;
    }
    // The other fields stay as they are (on, bounds, names, …); the server writes those of the new type only.
    var next = copy(form);
    next.type = type;
    next.patterns = patterns;
    next.after = ROLES[type].length === 1 ? after : [];
    return next;
  }

  function currentForm() {
    return editing.forms[editing.kind];
  }

  function openEditor() {
    closePanels();
    editing = { kind: view.formKind, forms: copy(view.forms), last: "form" };
    var switchable = view.clause.kind !== "trigger";
    $("form-kind").hidden = !switchable;
    $("form-kind-check").checked = editing.kind === "check";
    $("form-kind-semantic").checked = editing.kind === "semanticCheck";
    $("form-quote-line").hidden = view.quote === undefined;
    $("form-quote").textContent = view.quote === undefined ? "" : view.quote;
    $("edit-text").value = view.editText;
    $("yaml-edit").open = false;
    renderForm();
    $("edit-panel").hidden = false;
    checkEdit();
  }

  function changed() {
    editing.last = "form";
    if (previewTimer) clearTimeout(previewTimer);
    previewTimer = setTimeout(checkEdit, 120);
  }

  function textInput(path, label, value, onValue, attrs) {
    var wrap = el("label", "", label + " ");
    var input = el(attrs && attrs.multiline ? "textarea" : "input");
    if (!attrs || !attrs.multiline) input.type = "text";
    else input.rows = 2;
    input.value = value;
    input.setAttribute("data-path", path);
    input.setAttribute("spellcheck", "false");
    if (attrs && attrs.list) input.setAttribute("list", attrs.list);
    if (attrs && attrs.placeholder) input.placeholder = attrs.placeholder;
    if (attrs && attrs.size) input.size = attrs.size;
    input.addEventListener("input", function () {
      onValue(input.value);
      changed();
    });
    wrap.appendChild(input);
    return wrap;
  }

  function selectInput(path, label, value, options, onValue) {
    var wrap = el("label", "", label + " ");
    var select = el("select");
    select.setAttribute("data-path", path);
    options.forEach(function (o) {
      var option = el("option", "", o.label);
      option.value = o.value;
      select.appendChild(option);
    });
    select.value = value;
    select.addEventListener("change", function () {
      onValue(select.value);
    });
    wrap.appendChild(select);
    return wrap;
  }

  function button(label, onClick) {
    var b = el("button", "", label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  // One pattern: its alternatives (any of them matches), each with action, actor, content and metadata.
  function patternFieldset(role, matchers, optional, legend) {
    var set = el("fieldset", "pattern");
    set.setAttribute("data-role", role);
    set.appendChild(el("legend", "", legend || ROLE_HELP[role] || role));
    matchers.forEach(function (m, i) {
      var path = role + "[" + i + "]";
      var row = el("div", "alternative");
      if (i > 0) row.appendChild(el("span", "muted", "or "));
      row.appendChild(
        textInput(path + ".action", "action", m.action, function (v) {
          m.action = v;
        }, { list: "sample-actions", size: 18, placeholder: "name, or {in: [a, b]}" }),
      );
      row.appendChild(
        selectInput(
          path + ".actor",
          "actor",
          m.actor,
          [
            { value: "", label: "any" },
            { value: "user", label: "user" },
            { value: "agent", label: "agent" },
            { value: "tool", label: "tool" },
          ],
          function (v) {
            m.actor = v;
            changed();
          },
        ),
      );
      row.appendChild(
        textInput(path + ".contentIncludes", "content includes", m.contentIncludes, function (v) {
          m.contentIncludes = v;
        }, { size: 16 }),
      );
      row.appendChild(
        textInput(path + ".content", "content", m.content, function (v) {
          m.content = v;
        }, { placeholder: '{matches: "re", flags: i}', size: 16 }),
      );
      row.appendChild(
        textInput(path + ".metadata", "metadata", m.metadata, function (v) {
          m.metadata = v;
        }, { placeholder: "key: value, key: {gt: 500}, …", size: 24 }),
      );
      if (matchers.length > 1 || optional) {
        row.appendChild(
          button("Remove", function () {
            matchers.splice(i, 1);
            renderForm();
            changed();
          }),
        );
      }
      set.appendChild(row);
    });
    set.appendChild(
      button(matchers.length === 0 ? "Add an event" : "Or another event", function () {
        matchers.push(emptyMatcher());
        renderForm();
        changed();
      }),
    );
    return set;
  }

  function renderForm() {
    var box = $("form-fields");
    clear(box);
    var list = el("datalist");
    list.id = "sample-actions";
    view.vocabulary.actions.forEach(function (a) {
      var option = el("option");
      option.value = a;
      list.appendChild(option);
    });
    box.appendChild(list);
    var form = currentForm();
    if (form.kind === "semanticCheck") {
      box.appendChild(
        textInput("question", "Question for a model (yes means the clause is satisfied)", form.question, function (v) {
          form.question = v;
        }, { multiline: true }),
      );
      return;
    }
    if (form.kind === "trigger") {
      box.appendChild(
        textInput("description", "When the rule applies", form.description, function (v) {
          form.description = v;
        }, { size: 60 }),
      );
      // A semantic trigger can be given events again here; the other way is the "Let a model decide" choice.
      var semantic = el("label", "");
      var box_ = el("input");
      box_.type = "checkbox";
      box_.id = "form-semantic-trigger";
      box_.checked = form.semantic;
      box_.addEventListener("change", function () {
        form.semantic = box_.checked;
        if (!form.semantic && form.match.length === 0) form.match.push(emptyMatcher());
        renderForm();
        changed();
      });
      semantic.appendChild(box_);
      semantic.appendChild(document.createTextNode(" A model decides when the rule applies (no events to match)"));
      box.appendChild(semantic);
      if (!form.semantic) box.appendChild(patternFieldset("match", form.match, false));
      return;
    }
    box.appendChild(
      selectInput(
        "type",
        "type",
        form.type,
        TYPES.map(function (t) {
          return { value: t, label: t };
        }),
        function (v) {
          editing.forms.check = retype(form, v);
          renderForm();
          changed();
        },
      ),
    );
    ROLES[form.type].forEach(function (role) {
      box.appendChild(patternFieldset(role, form.patterns[role], false));
    });
    if (WINDOWED[form.type]) box.appendChild(patternFieldset("after", form.after, true));
    if (form.type === "count") {
      var bounds = el("fieldset", "bounds");
      bounds.appendChild(el("legend", "", "bounds: how many matching events (or their sum)"));
      bounds.appendChild(
        textInput("min", "min", form.min, function (v) {
          form.min = v;
        }, { size: 5 }),
      );
      bounds.appendChild(
        textInput("max", "max", form.max, function (v) {
          form.max = v;
        }, { size: 5 }),
      );
      bounds.appendChild(
        textInput("distinctBy", "distinct by", form.distinctBy, function (v) {
          form.distinctBy = v;
        }, { placeholder: "content or metadata.<key>", size: 22 }),
      );
      bounds.appendChild(
        textInput("per", "per", form.per, function (v) {
          form.per = v;
        }, { placeholder: "metadata.<key>: bounds for each value", size: 22 }),
      );
      bounds.appendChild(
        textInput("sum", "sum of", form.sum, function (v) {
          form.sum = v;
        }, { placeholder: "metadata.<key>: bound the sum", size: 22 }),
      );
      box.appendChild(bounds);
    }
    if (form.type === "condition") {
      form["with"].forEach(function (binding, i) {
        box.appendChild(bindingFieldset(form["with"], binding, i));
      });
      box.appendChild(
        button(form["with"].length === 0 ? "Name an earlier event" : "Name another earlier event", function () {
          form["with"].push(emptyBinding());
          renderForm();
          changed();
        }),
      );
      box.appendChild(
        textInput("when", "when (the expression that must hold)", form.when, function (v) {
          form.when = v;
        }, { multiline: true, placeholder: 'r.status == "ok" && event.amount <= 500' }),
      );
      return;
    }
    var more = el("fieldset", "bounds");
    more.appendChild(el("legend", "", "the same value, and more"));
    more.appendChild(
      textInput("on", "on", form.on, function (v) {
        form.on = v;
      }, { placeholder: "metadata.<key>: both events share its value", size: 30 }),
    );
    if (form.type === "ordering") {
      var fresh = [
        { value: "", label: "not given" },
        { value: "true", label: "true: a new first event for every before event" },
        { value: "false", label: "false" },
      ];
      if (["", "true", "false"].indexOf(form.fresh) < 0) fresh.push({ value: form.fresh, label: form.fresh });
      more.appendChild(
        selectInput("fresh", "fresh", form.fresh, fresh, function (v) {
          form.fresh = v;
          changed();
        }),
      );
    }
    if (form.type === "pairing") {
      more.appendChild(
        textInput("within", "within", form.within, function (v) {
          form.within = v;
        }, { placeholder: "N events", size: 6 }),
      );
    }
    box.appendChild(more);
  }

  // One name of a condition: the latest (or first) earlier event matching a pattern, optionally sharing a key.
  function bindingFieldset(bindings, binding, i) {
    var set = el("fieldset", "binding");
    var at = "with." + (binding.name.trim() === "" ? "[" + i + "]" : binding.name.trim());
    set.appendChild(el("legend", "", "with: a name for an earlier event"));
    set.appendChild(
      textInput(at, "name", binding.name, function (v) {
        binding.name = v;
      }, { size: 10 }),
    );
    set.appendChild(
      selectInput(
        at,
        "bound to the",
        binding.side,
        [
          { value: "latest", label: "latest earlier event" },
          { value: "first", label: "first earlier event" },
        ],
        function (v) {
          binding.side = v;
          renderForm();
          changed();
        },
      ),
    );
    set.appendChild(patternFieldset(at + "." + (binding.side || "latest"), binding.pattern, false, "matching any of"));
    set.appendChild(
      textInput(at + ".on", "on", binding.on, function (v) {
        binding.on = v;
      }, { placeholder: "metadata.<key>: the same value as the each event", size: 30 }),
    );
    set.appendChild(
      button("Remove the name", function () {
        bindings.splice(i, 1);
        renderForm();
        changed();
      }),
    );
    return set;
  }

  // Asks the server's parser about the edit as it stands; an answer to an older question is ignored.
  function checkEdit() {
    if (!editing || !view || view.kind !== "question") return;
    var seq = ++previewSeq;
    var body =
      editing.last === "yaml"
        ? { at: view.question, text: $("edit-text").value }
        : { at: view.question, form: currentForm() };
    request("preview", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (reply) {
        if (seq !== previewSeq || !editing) return;
        var data = reply.data;
        if (reply.status !== 200) return showError(data.error || "The preview failed (status " + reply.status + ").");
        if (data.stale) return showError(data.error);
        if (!data.ok) {
          showDiagnostics(data.diagnostics || []);
          clear($("edit-preview"));
          $("edit-preview").appendChild(el("p", "muted", "Not a valid clause yet; the preview waits for one."));
          return;
        }
        showDiagnostics([]);
        renderPreview($("edit-preview"), data.preview, "edit");
        if (data.warnings.length > 0) {
          var notes = el("ul", "notes");
          data.warnings.forEach(function (w) {
            notes.appendChild(el("li", "", w));
          });
          $("edit-preview").appendChild(notes);
        }
        renderEvidence(data.evidence, "With your edit: ");
      })
      .catch(function () {
        showError("The interview server is not reachable. Is behavior-judge still running?");
      });
  }

  function markInvalid(diagnostics) {
    var inputs = document.querySelectorAll("#form-fields [data-path]");
    Array.prototype.forEach.call(inputs, function (input) {
      var path = input.getAttribute("data-path");
      var bad = diagnostics.some(function (d) {
        return (
          d.path !== "" &&
          (d.path === path || d.path.indexOf(path + ".") === 0 || path.indexOf(d.path + ".") === 0 || path.indexOf(d.path + "[") === 0)
        );
      });
      input.classList.toggle("invalid", bad);
      if (bad) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    });
  }

  function saveEdit() {
    clear($("edit-diagnostics"));
    // The YAML box holds a clause of the question's own kind, as the server wrote it.
    if (editing.last === "yaml") send({ type: "edit", text: $("edit-text").value });
    else send({ type: "edit-form", form: currentForm() });
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
    renderReviewPreview(r);
    setEnabled($("review-back"), r.canBack);
    setEnabled($("confirm"), r.canConfirm);
  }

  function showDone() {
    $("verdict").hidden = true;
    $("question").hidden = true;
    $("review").hidden = true;
    $("done").hidden = false;
    $("progress").textContent = "Done";
    showError("");
  }

  function closePanels() {
    var wasEditing = editing !== null;
    editing = null;
    previewSeq++;
    if (previewTimer) clearTimeout(previewTimer);
    $("edit-panel").hidden = true;
    $("semantic-panel").hidden = true;
    clear($("edit-diagnostics"));
    clear($("edit-preview"));
    // The evidence shown was the unsaved edit's: back to the clause's own.
    if (wasEditing && view && view.kind === "question") renderEvidence(view.evidence);
  }

  function showDiagnostics(diagnostics) {
    fillList(
      $("edit-diagnostics"),
      diagnostics.map(function (d) {
        return d.text;
      }),
    );
    markInvalid(diagnostics);
  }

  ["true", "false", "na", "skip"].forEach(function (answer) {
    $("verdict-" + answer).addEventListener("click", function () {
      answerVerdict(answer);
    });
  });
  $("choice-accept").addEventListener("click", function () {
    send({ type: "accept" });
  });
  $("choice-drop").addEventListener("click", function () {
    send({ type: "drop" });
  });
  $("choice-edit").addEventListener("click", openEditor);
  $("edit-save").addEventListener("click", saveEdit);
  $("edit-text").addEventListener("input", function () {
    if (!editing) return;
    editing.last = "yaml";
    if (previewTimer) clearTimeout(previewTimer);
    previewTimer = setTimeout(checkEdit, 120);
  });
  [$("form-kind-check"), $("form-kind-semantic")].forEach(function (radio) {
    radio.addEventListener("change", function () {
      if (!editing || !radio.checked) return;
      editing.kind = radio.value;
      renderForm();
      changed();
    });
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
      $("verdict").hidden = true;
      $("question").hidden = true;
      $("review").hidden = true;
      $("cancelled").hidden = false;
      $("progress").textContent = "Cancelled";
      showError("");
    });
  });

  load();
})();
