/**
 * The HTML report: one self-contained file for people. It opens from disk
 * without a network (inline CSS and JavaScript, no fonts, images or requests)
 * and shows the run at a glance (counts and a stacked bar), then every flow,
 * failed ones first, each expanding to a waterfall of its steps with the
 * details of what went wrong: the message and where in the flow file, the
 * assertion table, the request and the response, and trace links.
 *
 * The page is built in two parts. The summary at the top is rendered here as
 * static HTML. The flows travel as JSON inside
 * `<script type="application/json" id="data">` and a small vanilla script
 * draws the list, filters it and builds a flow's details only when it is
 * expanded, so a report of thousands of flows stays small and quick.
 *
 * Values keep forms the CLI's redactor knows: HTML-escaped text (the same
 * escapes as XML text) and JSON with every `/` written as `\/`.
 *
 * Pure: no I/O, no `Deno.*`.
 *
 * @module
 */
import type { Counts, FlowResult, RunResult, Status, StepResult } from "../result.ts";
import type { Reporter } from "./reporter.ts";

/** Options of the HTML report. */
export interface HtmlOptions {
  /**
   * Turns trace ids into links: `{trace_id}` and `{span_id}` are replaced,
   * e.g. `http://jaeger:16686/trace/{trace_id}`. Without it the ids are shown.
   */
  traceLink?: string;
  /** The shard of a sharded run, shown at the top when known (`index` is 1-based). */
  shard?: { index: number; total: number };
  /** The page title (default `flowrun report`). */
  title?: string;
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Escapes text for HTML element content or a quoted attribute value. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON that is safe inside a `<script>` element: no `</` can close it (every
 * `/` is written `\/`, a form the redactor knows), no `<!--` or `<script`
 * can change how the element is parsed, and U+2028/U+2029 are escaped.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("/", "\\/")
    .replace(/<(!--|script)/gi, "\\u003c$1")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/** `123 ms`, `4.56 s`, `2 min 3 s`. */
function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

const STATUSES: readonly Status[] = ["passed", "failed", "error", "skipped"];
const ICONS: Record<Status, string> = { passed: "✓", failed: "✗", error: "!", skipped: "–" };

/** A stacked bar of counts with a text equivalent for screen readers. */
function stackedBar(label: string, c: Counts): string {
  const parts = STATUSES.filter((s) => c[s] > 0);
  const text = c.total === 0
    ? `${label}: none`
    : `${label}: ${parts.map((s) => `${c[s]} ${s}`).join(", ")} of ${c.total}`;
  const segments = parts.map((s) =>
    `<span class="seg st-${s}" style="flex-grow:${c[s]}" title="${c[s]} ${s}"></span>`
  ).join("");
  const legend = STATUSES.map((s) =>
    `<li class="st-${s}"><span class="icon" aria-hidden="true">${ICONS[s]}</span> ` +
    `<span class="num">${c[s]}</span> ${s}</li>`
  ).join("");
  return `<div class="summary-row" data-kind="${esc(label.toLowerCase())}">
<h3>${esc(label)} <span class="total">${c.total}</span></h3>
<div class="stack" role="img" aria-label="${esc(text)}">${segments}</div>
<ul class="legend" aria-hidden="true">${legend}</ul>
</div>`;
}

/**
 * The flows as compact JSON data for the page script. Short keys keep a
 * report of thousands of flows small; passing assertions leave out their
 * message, which only repeats the path, operator and expected value.
 */
function flowData(f: FlowResult): unknown[] {
  return [
    f.file,
    f.name,
    f.status,
    f.started_at,
    f.duration_ms,
    f.trace_id ?? null,
    f.steps.map(
      stepData,
    ),
  ];
}

function stepData(s: StepResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    n: s.name,
    s: s.status,
    d: s.duration_ms,
    k: s.attempts,
    l: s.line,
    c: s.column,
  };
  if (s.start_ms !== undefined) out.t = s.start_ms;
  if (s.attempt_starts_ms && s.attempt_starts_ms.length > 1) out.a = s.attempt_starts_ms;
  if (s.request) out.q = s.request;
  if (s.response) out.r = s.response;
  if (s.assertions.length > 0) {
    out.x = s.assertions.map((a) => [
      a.phase === "until" ? 1 : 0,
      a.path,
      a.operator,
      a.expected === undefined ? null : a.expected,
      a.actual === undefined ? null : a.actual,
      a.found ? 1 : 0,
      a.passed ? 1 : 0,
      a.line,
      a.column,
      ...(a.passed ? [] : [a.message]),
    ]);
  }
  if (s.captures.length > 0) out.p = s.captures;
  if (s.trace) out.tr = [s.trace.trace_id, s.trace.span_id];
  if (s.message !== undefined) out.m = s.message;
  if (s.failure_kind !== undefined) out.f = s.failure_kind;
  return out;
}

const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;
--pass:#1a7f37;--fail:#cf222e;--error:#8250df;--skip:#6e7781;--fail-bg:#ffebe9;--focus:#0969da;
--link:#0969da;--track:#eaeef2;--code:#eff1f3;--hover:#f3f4f6}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;
--panel:#151b23;--pass:#3fb950;--fail:#ff7b72;--error:#d2a8ff;--skip:#9198a1;--fail-bg:#3c1618;
--focus:#4493f8;--link:#4493f8;--track:#262c36;--code:#1f2630;--hover:#1c2129}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",
Roboto,"Helvetica Neue",Arial,sans-serif}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;
font-size:13px}
a{color:var(--link)}
header,main{max-width:1200px;margin:0 auto;padding:16px 24px}
header{border-bottom:1px solid var(--line)}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:18px;margin:8px 0 12px}
h3{font-size:15px;margin:0}
.meta{color:var(--muted);margin:0 0 12px;display:flex;flex-wrap:wrap;gap:4px 18px}
.meta b{color:var(--fg);font-weight:600}
.notice{border:1px solid var(--fail);background:var(--fail-bg);border-radius:6px;padding:8px 12px;
margin:0 0 12px}
.verdict{display:inline-block;font-weight:700;padding:1px 8px;border-radius:999px;border:1px solid}
.summary{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:12px 32px}
.summary-row h3{display:flex;gap:8px;align-items:baseline}
.summary-row .total{color:var(--muted);font-weight:400}
.stack{display:flex;height:14px;border-radius:4px;overflow:hidden;background:var(--track);margin:6px 0}
.seg{min-width:3px}
.seg+.seg{border-left:2px solid var(--bg)}
.seg.st-passed{background:var(--pass)}.seg.st-failed{background:var(--fail)}
.seg.st-error{background:var(--error)}
.seg.st-skipped{background:var(--skip);background-image:repeating-linear-gradient(45deg,
transparent 0 3px,rgba(255,255,255,.35) 3px 6px)}
.legend{list-style:none;margin:0;padding:0;display:flex;gap:14px;flex-wrap:wrap;color:var(--muted)}
.legend .num{color:var(--fg);font-weight:600}
.st-passed .icon,.icon.st-passed{color:var(--pass)}.st-failed .icon,.icon.st-failed{color:var(--fail)}
.st-error .icon,.icon.st-error{color:var(--error)}.st-skipped .icon,.icon.st-skipped{color:var(--skip)}
.icon{font-weight:700;display:inline-block;width:1.1em;text-align:center}
.toolbar{display:flex;flex-wrap:wrap;gap:10px 16px;align-items:center;margin:0 0 12px}
.filters{display:flex;border:1px solid var(--line);border-radius:6px;overflow:hidden}
.filters button{border:0;border-right:1px solid var(--line);background:var(--bg);color:var(--fg);
padding:6px 12px;font:inherit;cursor:pointer}
.filters button:last-child{border-right:0}
.filters button[aria-pressed="true"]{background:var(--fg);color:var(--bg);font-weight:600}
.search{display:flex;gap:8px;align-items:center;flex:1 1 260px}
.search input{flex:1;min-width:0;font:inherit;padding:6px 10px;border:1px solid var(--line);
border-radius:6px;background:var(--bg);color:var(--fg)}
#count{color:var(--muted)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.flows{list-style:none;margin:0;padding:0;border:1px solid var(--line);border-radius:8px}
/* Not list items: Chromium renumbers list items quadratically when many are hidden at once. */
.flow,.step{display:block}
.flow{border-top:1px solid var(--line)}
.flow:first-child{border-top:0}
.flow>h3>button{all:unset;box-sizing:border-box;display:grid;width:100%;cursor:pointer;
grid-template-columns:auto 1fr auto;gap:2px 10px;padding:8px 12px;align-items:baseline}
.flow>h3>button:hover{background:var(--hover)}
.flow>h3>button:focus-visible{outline:3px solid var(--focus);outline-offset:-3px}
.flow .chev{color:var(--muted);display:inline-block;transition:transform .1s}
.flow>h3>button[aria-expanded="true"] .chev{transform:rotate(90deg)}
.flow .name{font-weight:600}
.badge{font-size:12px;font-weight:700;letter-spacing:.02em;text-transform:uppercase;border-radius:4px;
padding:0 5px;border:1px solid currentColor;margin-right:6px;white-space:nowrap}
.flow .badge{display:inline-block;min-width:7em;text-align:center}
.st-passed .badge,.badge.st-passed{color:var(--pass)}.st-failed .badge,.badge.st-failed{color:var(--fail)}
.st-error .badge,.badge.st-error{color:var(--error)}.st-skipped .badge,.badge.st-skipped{color:var(--skip)}
.flow .file,.flow .dur{color:var(--muted);font-weight:400}
.flow .why{grid-column:2/4;color:var(--muted);font-weight:400;overflow:hidden;text-overflow:ellipsis;
white-space:nowrap}
.flow-body{padding:4px 12px 14px 12px;border-top:1px dashed var(--line)}
.flow-meta{color:var(--muted);margin:6px 0 8px;display:flex;gap:4px 16px;flex-wrap:wrap}
.steps{list-style:none;margin:0;padding:0}
.step{border-radius:6px}
.step-row{display:grid;grid-template-columns:minmax(150px,240px) 1fr 80px;gap:10px;align-items:center;
padding:2px 0}
.step-row button{all:unset;box-sizing:border-box;cursor:pointer;overflow:hidden;text-overflow:ellipsis;
white-space:nowrap;padding:2px 4px;border-radius:4px}
.step-row button:hover{background:var(--hover)}
.step-row button:focus-visible{outline:3px solid var(--focus);outline-offset:0}
.axis{display:grid;grid-template-columns:minmax(150px,240px) 1fr 80px;gap:10px;color:var(--muted);
font-size:12px}
.axis .scale{display:flex;justify-content:space-between;border-bottom:1px solid var(--line)}
.step-row .chev{color:var(--muted);display:inline-block;width:1em;transition:transform .1s}
.step-row button[aria-expanded="true"] .chev{transform:rotate(90deg)}
.track{position:relative;height:18px;background:var(--track);border-radius:3px}
.bar{position:absolute;top:3px;bottom:3px;min-width:3px;border-radius:2px}
.bar.st-passed{background:var(--pass)}.bar.st-failed{background:var(--fail)}.bar.st-error{background:var(--error)}
.bar.st-skipped{background:transparent;border:1px dashed var(--skip)}
.tick{position:absolute;top:0;bottom:0;width:2px;background:var(--bg);opacity:.9}
.step-dur{text-align:right;color:var(--muted);font-variant-numeric:tabular-nums}
.detail{margin:4px 0 12px 18px;padding:8px 12px;border-left:3px solid var(--line);background:var(--panel);
border-radius:0 6px 6px 0;overflow:auto}
.step.st-failed .detail,.step.st-error .detail{border-left-color:var(--fail)}
.msg{margin:0 0 6px;white-space:pre-wrap;word-break:break-word}
.step.st-failed .msg,.step.st-error .msg{color:var(--fail);font-weight:600}
.where{color:var(--muted);margin:0 0 8px}
.detail h4{font-size:13px;margin:10px 0 4px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
th{background:var(--bg);font-weight:600}
td code{word-break:break-word;white-space:pre-wrap;background:none}
tr.bad td{background:var(--fail-bg)}
tr.bad td:first-child{color:var(--fail);font-weight:700}
tr.good td:first-child{color:var(--pass)}
pre{background:var(--code);padding:8px;border-radius:4px;margin:4px 0;white-space:pre-wrap;
word-break:break-word;max-height:480px;overflow:auto}
.http{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:8px 16px}
.kv{margin:0;display:grid;grid-template-columns:max-content 1fr;gap:0 10px;font-size:13px}
.kv dt{color:var(--muted)}.kv dd{margin:0;word-break:break-all}
.note{color:var(--muted);font-style:italic;margin:2px 0}
.empty{padding:16px;color:var(--muted)}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);
white-space:nowrap;border:0}
footer{max-width:1200px;margin:0 auto;padding:8px 24px 24px;color:var(--muted);font-size:13px}
@media (max-width:640px){.step-row,.axis{grid-template-columns:1fr 60px}.step-row .track,.axis .scale{display:none}}
`;

/**
 * The page script. Kept free of backticks and `${` so it can live in a raw
 * template string; it never contains `</`, so it cannot close its element.
 */
const SCRIPT = String.raw`
(function () {
  "use strict";
  var started = performance.now();
  var data = JSON.parse(document.getElementById("data").textContent);
  var ICON = { passed: "\u2713", failed: "\u2717", error: "!", skipped: "\u2013" };
  var LABEL = { passed: "passed", failed: "failed", error: "error", skipped: "skipped" };
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

  // Flows: [file, name, status, started_at, duration_ms, trace_id, steps]
  var rank = { failed: 0, error: 0, passed: 1, skipped: 1 };
  var flows = data.flows.map(function (f, i) {
    var steps = f[6];
    var hay = (f[1] + "\n" + f[0] + "\n" + steps.map(function (s) { return s.n; }).join("\n")).toLowerCase();
    return { i: i, file: f[0], name: f[1], status: f[2], started: f[3], dur: f[4], trace: f[5], steps: steps, hay: hay };
  });
  flows.sort(function (a, b) {
    return rank[a.status] - rank[b.status] || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.i - b.i);
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
    btn.appendChild(left);
    var mid = el("span");
    mid.appendChild(el("span", "name", f.name));
    mid.appendChild(document.createTextNode(" "));
    mid.appendChild(el("span", "file mono", f.file));
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
      tick.title = "attempt " + (k + 1) + " at " + ms(start + t);
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
    var where = el("p", "where mono", f.file + ":" + s.l + ":" + s.c);
    box.appendChild(where);
    if (s.tr) {
      var tp = el("p", "where");
      tp.appendChild(document.createTextNode("Trace: "));
      tp.appendChild(traceNode(s.tr[0], s.tr[1]));
      box.appendChild(tp);
    }
    if (s.x && s.x.length) {
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
      // [until, path, operator, expected, actual, found, passed, line, column, message?]
      s.x.forEach(function (a) {
        var tr = el("tr", a[6] ? "good" : "bad");
        tr.appendChild(el("td", null, (a[6] ? "\u2713 passed" : "\u2717 failed")));
        var path = el("td");
        path.appendChild(el("code", null, (a[0] ? "until " : "") + a[1]));
        tr.appendChild(path);
        tr.appendChild(el("td", "mono", a[2]));
        var exp = el("td");
        exp.appendChild(el("code", null, compact(a[3])));
        tr.appendChild(exp);
        var act = el("td");
        act.appendChild(el("code", null, a[5] ? compact(a[4]) : "(nothing matched)"));
        tr.appendChild(act);
        tr.appendChild(el("td", null, a.length > 9 ? a[9] : ""));
        tr.appendChild(el("td", "mono", a[7] + ":" + a[8]));
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
`;

/**
 * Renders a run as one self-contained HTML page: inline CSS and script, no
 * external resources, readable offline. Every value from the run is
 * HTML-escaped or carried as JSON data, so names, URLs and bodies cannot
 * inject markup.
 *
 * @example
 * ```ts
 * import { toHtml } from "./html.ts";
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * const html = toHtml({
 *   run_id: "r1", runner_version: "0.1.0", started_at: "2025-01-01T00:00:00.000Z",
 *   duration_ms: 5, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } },
 *   flows: [],
 * }, { title: "<nightly>", shard: { index: 2, total: 4 } });
 * if (!html.startsWith("<!doctype html>") || !html.includes("&lt;nightly&gt;")) throw new Error();
 * if (!html.includes("Shard <b>2/4</b>") || /<script src|<link/i.test(html)) throw new Error();
 * ```
 */
export function toHtml(result: RunResult, options: HtmlOptions = {}): string {
  const title = options.title ?? "flowrun report";
  const { flows, steps, assertions } = result.totals;
  const verdict = result.status === "passed" ? "passed" : "failed";
  const meta = [
    `<span>Run <b class="mono">${esc(result.run_id)}</b></span>`,
    `<span>Started <time datetime="${esc(result.started_at)}"><b>${
      esc(result.started_at.replace("T", " ").replace(/\.\d+Z$/, " UTC").replace(/Z$/, " UTC"))
    }</b></time></span>`,
    `<span>Took <b>${esc(duration(result.duration_ms))}</b></span>`,
    ...(options.shard
      ? [`<span>Shard <b>${options.shard.index}/${options.shard.total}</b></span>`]
      : []),
    `<span>Assertions <b>${assertions.passed}/${assertions.total}</b> passed</span>`,
    `<span>flowrun <b>${esc(result.runner_version)}</b></span>`,
  ];
  const interrupted = result.interrupted
    ? `<p class="notice" role="status"><strong>Interrupted</strong> by ${
      esc(result.interrupted)
    }: unfinished steps are reported as skipped.</p>`
    : "";
  const data = {
    traceLink: options.traceLink ?? null,
    flows: result.flows.map(flowData),
  };
  const failedFlows = flows.failed + flows.error;
  const filter = (key: string, label: string, n: number) =>
    `<button type="button" data-filter="${key}" aria-pressed="${
      key === "all"
    }">${label} (${n})</button>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${verdict === "passed" ? "✓" : "✗"} ${esc(title)} · ${esc(result.run_id)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>${esc(title)} <span class="verdict st-${verdict} badge">${
    verdict === "passed" ? "✓ passed" : "✗ failed"
  }</span></h1>
<p class="meta">${meta.join("\n")}</p>
${interrupted}<section class="summary" aria-labelledby="summary-title">
<h2 id="summary-title" class="sr-only">Summary</h2>
${stackedBar("Flows", flows)}
${stackedBar("Steps", steps)}
</section>
</header>
<main>
<h2 id="flows-title">Flows</h2>
<noscript><p>The flow list needs JavaScript; the same data is in the JSON report.</p></noscript>
<div class="toolbar">
<div class="filters" role="group" aria-label="Show flows by status">
${filter("all", "All", flows.total)}
${filter("failed", "Failed", failedFlows)}
${filter("passed", "Passed", flows.passed)}
${filter("skipped", "Skipped", flows.skipped)}
</div>
<div class="search"><label for="search">Search</label>
<input id="search" type="search" placeholder="flow, step or file name" autocomplete="off"></div>
<p id="count" aria-live="polite" role="status"></p>
</div>
<ul id="flows" class="flows" aria-labelledby="flows-title"></ul>
<p id="empty" class="empty" hidden>No flows match.</p>
</main>
<footer>Failed and errored flows are listed first, then the rest by file path. Select a flow to see its steps.</footer>
<script type="application/json" id="data">${scriptJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * A reporter that writes the HTML report once the run has ended, whatever
 * its outcome.
 *
 * @example
 * ```ts
 * import { htmlReporter } from "./html.ts";
 * let out = "";
 * const reporter = htmlReporter((text) => {
 *   out = text;
 *   return Promise.resolve();
 * }, { title: "Nightly" });
 * const none = { total: 0, passed: 0, failed: 0, error: 0, skipped: 0 };
 * await reporter.onRunEnd?.({
 *   run_id: "r1", runner_version: "0.1.0", started_at: "", duration_ms: 0, status: "passed",
 *   totals: { flows: none, steps: none, assertions: { total: 0, passed: 0, failed: 0 } }, flows: [],
 * });
 * if (!out.includes("<h1>Nightly")) throw new Error(out.slice(0, 200));
 * ```
 */
export function htmlReporter(
  write: (text: string) => Promise<void>,
  options: HtmlOptions = {},
): Reporter {
  return {
    async onRunEnd(result) {
      await write(toHtml(result, options));
    },
  };
}
