
(function () {
  "use strict";
  var started = performance.now();
  var data = JSON.parse(document.getElementById("data").textContent);
  var ICON = { passed: "\u2713", failed: "\u2717", error: "!", skipped: "\u2013", flaky: "\u26A0" };
  var LABEL = { passed: "passed", failed: "failed", error: "error", skipped: "skipped", flaky: "flaky" };
  var DISPLAY_CAP = 65536;
  var list = document.getElementById("flows");
  var count = document.getElementById("count");
  var empty = document.getElementById("empty");
  var search = document.getElementById("search");
  var filterButtons = document.querySelectorAll(".filters button");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function ms(v) {
    if (v < 10) return (Math.round(v * 10) / 10) + " ms";
    if (v < 1000) return Math.round(v) + " ms";
    if (v < 60000) return (v / 1000).toFixed(2) + " s";
    var s = Math.round(v / 1000);
    return Math.floor(s / 60) + " min " + (s % 60) + " s";
  }
  function compact(v) {
    var s;
    try { s = JSON.stringify(v); } catch (e) { s = String(v); }
    if (s === undefined) s = String(v);
    return s.length > 2000 ? s.slice(0, 2000) + "\u2026 (" + (s.length - 2000) + " more characters)" : s;
  }
  // What each poll attempt got back: a status, or no response.
  function attemptStatus(s, k) {
    if (!s.as || k >= s.as.length) return "";
    return s.as[k] === null ? ": no response" : ": " + s.as[k];
  }
  function badge(status) {
    var b = el("span", "badge st-" + status);
    var i = el("span", "icon", ICON[status]);
    i.setAttribute("aria-hidden", "true");
    b.appendChild(i);
    b.appendChild(document.createTextNode(" " + LABEL[status]));
    return b;
  }
  function traceNode(traceId, spanId) {
    var wrap = el("span", "mono");
    var tpl = data.traceLink;
    if (tpl) {
      var href = tpl.split("{trace_id}").join(traceId).split("{span_id}").join(spanId || "");
      if (/^https?:/i.test(href)) {
        var a = el("a", null, href);
        a.href = href;
        a.rel = "noreferrer noopener";
        a.target = "_blank";
        wrap.appendChild(a);
        return wrap;
      }
      wrap.textContent = href;
      return wrap;
    }
    wrap.textContent = "trace " + traceId + (spanId ? " span " + spanId : "");
    return wrap;
  }

  // Flows: [file, name, status, started_at, duration_ms, trace_id, steps, reproduce,
  //   re-runs {flaky, retries, attempts: [{n, s, at, d, steps}]}, history {streak, note},
  //   role "setup" | "teardown"]
  var rank = { failed: 0, error: 0, passed: 1, skipped: 1 };
  var flows = data.flows.map(function (f, i) {
    var steps = f[6];
    var hay = (f[1] + "\n" + f[0] + "\n" + steps.map(function (s) { return s.n; }).join("\n")).toLowerCase();
    return { i: i, file: f[0], name: f[1], status: f[2], started: f[3], dur: f[4], trace: f[5], steps: steps, repro: f[7] || null, rerun: f[8] || null, hist: f[9] || null, role: f[10] || null, hay: hay };
  });
  // Flaky flows passed, but they are news: after the failed ones, before the rest.
  function rankOf(f) { return f.rerun && f.rerun.flaky ? 0.5 : rank[f.status]; }
  // Setup flows first and teardown flows last, in the order they ran, as in every report.
  var ROLE = { setup: -1, teardown: 1 };
  function roleOf(f) { return ROLE[f.role] || 0; }
  flows.sort(function (a, b) {
    if (a.role || b.role) return roleOf(a) - roleOf(b) || a.i - b.i;
    return rankOf(a) - rankOf(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.i - b.i);
  });

  function firstProblem(f) {
    for (var i = 0; i < f.steps.length; i++) {
      var s = f.steps[i];
      if (s.s === "failed" || s.s === "error") return s;
    }
    return null;
  }

  var frag = document.createDocumentFragment();
  flows.forEach(function (f, n) {
    var li = el("li", "flow st-" + f.status);
    var h = el("h3");
    var btn = el("button");
    btn.type = "button";
    btn.id = "flow-" + n;
    btn.setAttribute("aria-expanded", "false");
    btn.setAttribute("aria-controls", "flow-" + n + "-body");
    var left = el("span");
    var chev = el("span", "chev", "\u25B8");
    chev.setAttribute("aria-hidden", "true");
    left.appendChild(chev);
    left.appendChild(document.createTextNode(" "));
    left.appendChild(badge(f.status));
    if (f.rerun && f.rerun.flaky) left.appendChild(badge("flaky"));
    btn.appendChild(left);
    var mid = el("span");
    mid.appendChild(el("span", "name", f.name));
    mid.appendChild(document.createTextNode(" "));
    mid.appendChild(el("span", "file mono", f.file));
    if (f.hist) {
      var streak = el("span", "streak mono", " " + f.hist.streak);
      streak.title = "Recent runs, newest last";
      mid.appendChild(streak);
      if (f.hist.note) mid.appendChild(el("span", "why", f.hist.note));
    }
    btn.appendChild(mid);
    btn.appendChild(el("span", "dur", f.steps.length + (f.steps.length === 1 ? " step, " : " steps, ") + ms(f.dur)));
    var p = firstProblem(f);
    if (p) btn.appendChild(el("span", "why", p.n + ": " + (p.m || "").split("\n")[0].slice(0, 200)));
    h.appendChild(btn);
    li.appendChild(h);
    var body = el("div", "flow-body");
    body.id = "flow-" + n + "-body";
    body.hidden = true;
    li.appendChild(body);
    f.li = li;
    f.btn = btn;
    f.body = body;
    f.built = false;
    btn.addEventListener("click", function () { toggle(f); });
    frag.appendChild(li);
  });
  list.appendChild(frag);
  // Failed flows are what a reader came for: the first ones open at once.
  flows.filter(function (f) { return f.status === "failed" || f.status === "error"; })
    .slice(0, 10).forEach(function (f) { toggle(f); });

  function toggle(f) {
    var open = f.btn.getAttribute("aria-expanded") !== "true";
    if (open && !f.built) { buildFlow(f); f.built = true; }
    f.btn.setAttribute("aria-expanded", String(open));
    f.body.hidden = !open;
  }

  function buildFlow(f) {
    var meta = el("p", "flow-meta");
    meta.appendChild(el("span", "mono", f.file));
    meta.appendChild(el("span", null, "started " + f.started));
    meta.appendChild(el("span", null, "took " + ms(f.dur)));
    if (f.trace) meta.appendChild(traceNode(f.trace, ""));
    f.body.appendChild(meta);
    if (f.repro) {
      var repro = el("p", "reproduce");
      repro.appendChild(el("span", null, "Reproduce: "));
      repro.appendChild(el("code", "mono", f.repro));
      f.body.appendChild(repro);
    }
    if (f.rerun) buildAttempts(f);
    // Time axis: the flow's duration, widened if steps reach past it.
    var at = 0;
    var placed = f.steps.map(function (s) {
      var start = typeof s.t === "number" ? s.t : at;
      at = start + s.d;
      return start;
    });
    var total = Math.max(f.dur, at, 1);
    var axis = el("div", "axis");
    axis.setAttribute("aria-hidden", "true");
    axis.appendChild(el("span", null, "step"));
    var scale = el("span", "scale");
    scale.appendChild(el("span", null, "0"));
    scale.appendChild(el("span", null, ms(total / 2)));
    scale.appendChild(el("span", null, ms(total)));
    axis.appendChild(scale);
    axis.appendChild(el("span", "step-dur", "duration"));
    f.body.appendChild(axis);
    var ol = el("ol", "steps");
    ol.setAttribute("aria-label", "Steps of " + f.name);
    f.steps.forEach(function (s, j) { ol.appendChild(buildStep(f, s, placed[j], total, j)); });
    f.body.appendChild(ol);
  }

  // A re-run flow's earlier runs, each a list of its steps as the flow's own are shown.
  function buildAttempts(f) {
    var runs = f.rerun.retries + 1;
    var last = f.rerun.attempts.length + 1;
    f.body.appendChild(el("p", "flow-meta attempts-note", f.rerun.flaky
      ? "Flaky: passed on attempt " + last + " of " + runs + "; the attempts that failed are below."
      : "Failed on " + last + " of " + runs + " attempts; the earlier ones are below."));
    f.rerun.attempts.forEach(function (a) {
      var box = el("details", "attempt st-" + a.s);
      box.appendChild(el("summary", null, "Attempt " + a.n + " of " + runs + ": " + LABEL[a.s] + ", took " + ms(a.d)));
      var ol = el("ol", "steps");
      var g = { btn: { id: f.btn.id + "-attempt-" + a.n }, name: f.name, file: f.file };
      var at = 0;
      a.steps.forEach(function (s, j) {
        var start = typeof s.t === "number" ? s.t : at;
        at = start + s.d;
        ol.appendChild(buildStep(g, s, start, Math.max(a.d, 1), j));
      });
      box.appendChild(ol);
      f.body.appendChild(box);
    });
  }

  function buildStep(f, s, start, total, j) {
    var li = el("li", "step st-" + s.s);
    var row = el("div", "step-row");
    var btn = el("button");
    btn.type = "button";
    var id = f.btn.id + "-step-" + j;
    btn.setAttribute("aria-controls", id);
    var chev = el("span", "chev", "\u25B8");
    chev.setAttribute("aria-hidden", "true");
    btn.appendChild(chev);
    var ic = el("span", "icon", ICON[s.s]);
    ic.setAttribute("aria-hidden", "true");
    btn.appendChild(ic);
    btn.appendChild(document.createTextNode(" " + s.n));
    btn.appendChild(el("span", "sr-only", ", " + LABEL[s.s] + ", " + ms(s.d)));
    var attempts = s.k > 1 ? " (" + s.k + " attempts)" : "";
    var title = s.n + ": " + LABEL[s.s] + ", " + ms(s.d) + attempts + ", from " + ms(start) + " to " + ms(start + s.d);
    btn.title = title;
    row.appendChild(btn);
    var track = el("div", "track");
    track.setAttribute("aria-hidden", "true");
    var bar = el("div", "bar st-" + s.s);
    bar.style.left = (start / total * 100) + "%";
    bar.style.width = (s.d / total * 100) + "%";
    bar.title = title;
    track.appendChild(bar);
    (s.a || []).forEach(function (t, k) {
      if (k === 0) return;
      var tick = el("div", "tick");
      tick.style.left = ((start + t) / total * 100) + "%";
      tick.title = "attempt " + (k + 1) + " at " + ms(start + t) + attemptStatus(s, k);
      track.appendChild(tick);
    });
    row.appendChild(track);
    row.appendChild(el("span", "step-dur", s.s === "skipped" ? "skipped" : ms(s.d) + (s.k > 1 ? " \u00D7" + s.k : "")));
    li.appendChild(row);
    var detail = el("div", "detail");
    detail.id = id;
    var bad = s.s === "failed" || s.s === "error";
    var built = false;
    function show(open) {
      if (open && !built) { buildDetail(f, s, detail); built = true; }
      detail.hidden = !open;
      btn.setAttribute("aria-expanded", String(open));
    }
    show(bad);
    btn.addEventListener("click", function () { show(btn.getAttribute("aria-expanded") !== "true"); });
    li.appendChild(detail);
    return li;
  }

  function kv(obj) {
    var dl = el("dl", "kv");
    Object.keys(obj).forEach(function (k) {
      dl.appendChild(el("dt", "mono", k));
      dl.appendChild(el("dd", "mono", obj[k]));
    });
    return dl;
  }

  function bodyBlock(parent, text, contentType, truncated) {
    var shown = text;
    var json = (contentType && /json/i.test(contentType)) || /^\s*[\[{]/.test(text);
    if (json) {
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { shown = text; }
    }
    var more = 0;
    if (shown.length > DISPLAY_CAP) { more = shown.length - DISPLAY_CAP; shown = shown.slice(0, DISPLAY_CAP); }
    parent.appendChild(el("pre", "body", shown === "" ? "(empty)" : shown));
    if (truncated) parent.appendChild(el("p", "note", "truncated: " + truncated + " more characters"));
    if (more) parent.appendChild(el("p", "note", "display cut at 64 KB: " + more + " more characters not shown"));
  }

  function buildDetail(f, s, box) {
    if (s.m) box.appendChild(el("p", "msg", s.m));
    var where = el("p", "where mono", (s.sf || f.file) + ":" + s.l + ":" + s.c);
    box.appendChild(where);
    if (s.tr) {
      var tp = el("p", "where");
      tp.appendChild(document.createTextNode("Trace: "));
      tp.appendChild(traceNode(s.tr[0], s.tr[1]));
      box.appendChild(tp);
    }
    if (s.as && s.as.length > 1) {
      box.appendChild(el("p", "where attempts", "Attempts: " + s.as.map(function (st) {
        return st === null ? "no response" : String(st);
      }).join(", ")));
    }
    if ((s.x && s.x.length) || (s.cf && s.cf.length)) {
      box.appendChild(el("h4", null, "Assertions"));
      var table = el("table", "assertions");
      var head = el("tr");
      ["Result", "Path", "Operator", "Expected", "Actual", "Message", "Line"].forEach(function (t) {
        var th = el("th", null, t);
        th.scope = "col";
        head.appendChild(th);
      });
      var thead = el("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var tbody = el("tbody");
      // [until, path, operator, expected, actual, found, passed (2: a skipped group), line, column,
      // message?, check file?]; a capture that found nothing is a failed row of the same table.
      var rows = (s.x || []).concat((s.cf || []).map(function (c) {
        var row = [0, c[0], "capture", "a value", null, 0, 0, c[2], c[3], c[1]];
        row.words = true; // "a value" is said, not a JSON value
        return row;
      }));
      rows.forEach(function (a) {
        var tr = el("tr", a[6] ? "good" : "bad");
        tr.appendChild(el("td", null, (a[6] === 2 ? "\u25cb skipped" : a[6] ? "\u2713 passed" : "\u2717 failed")));
        var path = el("td");
        path.appendChild(el("code", null, (a[0] ? "until " : "") + a[1]));
        tr.appendChild(path);
        tr.appendChild(el("td", "mono", a[2]));
        var exp = el("td");
        exp.appendChild(el("code", null, a.words ? a[3] : compact(a[3])));
        tr.appendChild(exp);
        var act = el("td");
        act.appendChild(el("code", null, a[5] ? compact(a[4]) : "(nothing matched)"));
        tr.appendChild(act);
        tr.appendChild(el("td", null, a.length > 9 ? a[9] : ""));
        tr.appendChild(el("td", "mono", (a.length > 10 ? a[10] + ":" : "") + a[7] + ":" + a[8]));
        tbody.appendChild(tr);
      });
      table.appendChild(tbody);
      box.appendChild(table);
    }
    if (s.p && s.p.length) box.appendChild(el("p", "note", "captured: " + s.p.join(", ")));
    if (s.q || s.r) {
      var http = el("div", "http");
      if (s.q) {
        var rq = el("section", "request");
        rq.appendChild(el("h4", null, "Request"));
        rq.appendChild(el("p", "mono", s.q.method + " " + s.q.url));
        if (s.q.headers) rq.appendChild(kv(s.q.headers));
        if (s.q.body !== undefined) bodyBlock(rq, s.q.body, (s.q.headers && (s.q.headers["content-type"] || s.q.headers["Content-Type"])) || "", 0);
        if (s.q.curl) {
          // The same line as the console's and report.json's, to paste into a shell.
          var curl = el("p", "curl");
          curl.appendChild(el("span", null, "curl: "));
          curl.appendChild(el("code", "mono", s.q.curl));
          rq.appendChild(curl);
        }
        http.appendChild(rq);
      }
      if (s.r) {
        var rs = el("section", "response");
        rs.appendChild(el("h4", null, "Response"));
        rs.appendChild(el("p", "mono", "HTTP " + s.r.status + (s.r.content_type ? " \u00B7 " + s.r.content_type : "")));
        if (s.r.headers) rs.appendChild(kv(s.r.headers));
        if (s.r.body !== undefined) bodyBlock(rs, s.r.body, s.r.content_type, s.r.body_truncated);
        else if (s.r.body_excerpt !== undefined) bodyBlock(rs, s.r.body_excerpt, s.r.content_type, 0);
        http.appendChild(rs);
      } else if (s.q && s.s !== "skipped" && s.s !== "passed") {
        var none = el("section", "response");
        none.appendChild(el("h4", null, "Response"));
        none.appendChild(el("p", "note", "No response arrived."));
        http.appendChild(none);
      }
      box.appendChild(http);
    }
  }

  // Filtering: by status group and by search terms over flow, file and step names.
  var mode = "all";
  var timer = 0;
  function matches(f, terms) {
    if (mode === "failed" && f.status !== "failed" && f.status !== "error") return false;
    if (mode === "passed" && f.status !== "passed") return false;
    if (mode === "flaky" && !(f.rerun && f.rerun.flaky)) return false;
    if (mode === "skipped" && f.status !== "skipped") return false;
    for (var i = 0; i < terms.length; i++) if (f.hay.indexOf(terms[i]) < 0) return false;
    return true;
  }
  function apply() {
    var t0 = performance.now();
    var terms = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    for (var i = 0; i < flows.length; i++) {
      var ok = matches(flows[i], terms);
      if (flows[i].li.hidden === ok) flows[i].li.hidden = !ok;
      if (ok) shown++;
    }
    empty.hidden = shown !== 0;
    count.textContent = "Showing " + shown + " of " + flows.length + (flows.length === 1 ? " flow" : " flows");
    document.body.setAttribute("data-filter-ms", String(performance.now() - t0));
  }
  filterButtons.forEach(function (b) {
    b.addEventListener("click", function () {
      mode = b.getAttribute("data-filter");
      filterButtons.forEach(function (o) { o.setAttribute("aria-pressed", String(o === b)); });
      apply();
    });
  });
  search.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(apply, 150);
  });
  search.addEventListener("keydown", function (e) {
    if (e.key === "Enter") { clearTimeout(timer); apply(); }
  });
  apply();
  document.body.setAttribute("data-render-ms", String(performance.now() - started));
  document.body.setAttribute("data-ready", "true");
})();
