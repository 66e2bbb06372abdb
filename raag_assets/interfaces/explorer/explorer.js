/* The explorer page: the REST API with the tenant's key, nothing else. Results, their score
   breakdown and conflicts, the result graph (graph.js), the passage in its document, and the
   documents' versions and parked references. */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const state = { tenant: "", key: "", docs: null, texts: new Map(), trees: new Map(), last: null, hidden: new Set() };

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c == null || c === false) continue;
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return node;
  }

  const where = (ref) => ref.doc_id + (ref.label == null ? "" : " § " + ref.label);
  const pages = (r) => r.page_start == null ? "" : r.page_end && r.page_end !== r.page_start
    ? `pp. ${r.page_start}–${r.page_end}` : `p. ${r.page_start}`;

  // --- messages and the API --------------------------------------------------------------

  function showError(text) {
    const box = $("message");
    box.textContent = text;
    box.hidden = !text;
  }
  const setStatus = (text) => { $("status").textContent = text; };

  class ApiError extends Error {
    constructor(status, code, message) { super(message); this.status = status; this.code = code; }
  }

  async function api(path, body) {
    if (!state.tenant || !state.key) throw new ApiError(0, "no_key", "Enter the tenant and one of its API keys first.");
    const init = { headers: { "X-API-Key": state.key } };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(`/v1/tenants/${encodeURIComponent(state.tenant)}${path}`, init);
    } catch (err) {
      throw new ApiError(0, "network", `the raag service did not answer (${err.message}); is \`raag serve\` running?`);
    }
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const e = (data && data.error) || {};
      const detail = (e.details || []).map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ");
      throw new ApiError(response.status, e.code || "http_error",
        (e.message || response.statusText) + (detail ? ` (${detail})` : ""));
    }
    return data;
  }

  function explain(err) {
    if (err.code === "unauthorized") {
      return `Wrong key: ${err.message}. Check the tenant and the key, or make a key with ` +
        `\`raag api-key create --tenant ${state.tenant || "TENANT"}\`.`;
    }
    if (err.code === "no_key") return err.message;
    if (err.code === "tenant_not_found") return `No such tenant: ${err.message}.`;
    if (err.status === 503) return `The database is unavailable: ${err.message}.`;
    return `The request failed (${err.code}): ${err.message}`;
  }

  // --- access ----------------------------------------------------------------------------

  function readFragment() {
    // `raag explore` opens /explore/#tenant=T&key=K; the key leaves the address bar at once
    const params = new URLSearchParams(location.hash.slice(1));
    const tenant = params.get("tenant"), key = params.get("key"), query = params.get("q");
    if (tenant) sessionStorage.setItem("raag.tenant", tenant);
    if (key) sessionStorage.setItem("raag.key", key);
    if (key || tenant) history.replaceState(null, "", location.pathname + location.search);
    return query;
  }

  async function connect() {
    state.tenant = $("tenant").value.trim();
    state.key = $("key").value.trim();
    state.docs = null;
    state.texts.clear();
    state.trees.clear();
    sessionStorage.setItem("raag.tenant", state.tenant);
    sessionStorage.setItem("raag.key", state.key);
    try {
      const docs = await loadDocuments();
      showError("");
      setStatus(`Tenant ${state.tenant}: ${docs.filter((d) => !d.version_of).length} documents, ` +
        `${docs.filter((d) => d.version_of).length} earlier versions.`);
      return true;
    } catch (err) {
      showError(explain(err));
      setStatus("");
      return false;
    }
  }

  async function loadDocuments() {
    if (!state.docs) {
      state.docs = await api("/documents");
      const select = $("opt-doc");
      select.replaceChildren(h("option", { value: "" }, "any"));
      for (const d of state.docs.filter((x) => !x.version_of)) {
        select.appendChild(h("option", { value: d.doc_id }, d.doc_id));
      }
    }
    return state.docs;
  }

  // --- search ----------------------------------------------------------------------------

  function searchBody() {
    const doc = $("opt-doc").value;
    const body = {
      query: $("query").value.trim() + (doc ? ` in document ${doc}` : ""),
      k: Number($("opt-k").value) || 8,
      max_expansion_hops: Number($("opt-hops").value),
    };
    if ($("opt-asof").value) body.as_of_date = $("opt-asof").value;
    if ($("opt-scope").value.trim()) body.scope_context = $("opt-scope").value.trim();
    const tags = $("opt-tags").value.split(/[,\s]+/).map((t) => t.replace(/^#/, "")).filter(Boolean);
    if (tags.length) body.tags_any = tags;
    return body;
  }

  async function runSearch() {
    if (!$("query").value.trim()) return;
    const button = $("search-button");
    button.disabled = true;
    setStatus("Searching…");
    const started = performance.now();
    try {
      const res = await api("/search", searchBody());
      state.last = res;
      showError("");
      renderResults(res);
      setStatus(`${res.results.length} results in ${Math.round(performance.now() - started)} ms.`);
      performance.mark("raag:results-rendered");
    } catch (err) {
      showError(explain(err));
      setStatus("");
    } finally {
      button.disabled = false;
    }
  }

  function renderResults(res) {
    const list = $("results");
    list.replaceChildren();
    const top = Math.max(...res.results.map((r) => r.score_breakdown.base || r.score), 1e-9);
    for (const r of res.results) list.appendChild(resultItem(r, top));
    if (!res.results.length) list.appendChild(h("li", { class: "empty" }, "Nothing found."));
    renderSummary(res);
    drawGraph();
  }

  function resultItem(r, top) {
    const title = `${where(r)} ${r.heading || ""}`.trim();
    return h("li", { class: "result" + (r.conflict ? " lost" : "") + (r.expansion_depth ? " expanded" : ""), id: "result-" + r.rank, "data-rank": r.rank },
      h("div", { class: "rhead" },
        h("span", { class: "rank", "aria-hidden": "true" }, String(r.rank)),
        h("button", { type: "button", class: "open", "aria-label": `Open ${title} at the passage`, onclick: () => openResult(r) }, title),
        h("span", { class: "score", title: "final score" }, r.score.toFixed(4))),
      h("p", { class: "meta" },
        [pages(r), r.superseded ? "superseded" : "", r.effective_from ? `in force from ${r.effective_from}${r.effective_to ? " to " + r.effective_to : ""}` : "",
          r.expansion_depth ? `expanded, depth ${r.expansion_depth}` : "direct hit"].filter(Boolean).join(" · ")),
      h("p", { class: "reason" }, r.retrieval_reason),
      r.passage ? h("blockquote", { class: "passage" }, r.passage) : null,
      breakdown(r, top),
      r.conflict ? h("p", { class: "conflict" }, `Yields to ${where(r.conflict.lost_to)} (${r.conflict.rule}).`) : null);
  }

  /* One bar per factor: the base score against the best base, then each adjustment as a bar
     whose length is its effect (log scale, x2 = full), green when it raises, red when it lowers. */
  function breakdown(r, top) {
    const sb = r.score_breakdown;
    const rows = [];
    const baseName = sb.rrf != null
      ? `RRF (vector ${sb.vector_rank == null ? "–" : "#" + sb.vector_rank}, full-text ${sb.fulltext_rank == null ? "–" : "#" + sb.fulltext_rank})`
      : "from its source";
    rows.push(bar("base", baseName, sb.base.toFixed(4), sb.base / top, "base"));
    for (const a of sb.adjustments) {
      const effect = Math.min(1, Math.abs(Math.log(a.factor)) / Math.log(2));
      rows.push(bar(a.kind, a.detail, "×" + a.factor, effect, a.factor >= 1 ? "up" : "down"));
    }
    rows.push(bar("final", "final score", sb.final.toFixed(4), sb.final / top, "final"));
    return h("details", { class: "breakdown" },
      h("summary", {}, `Score breakdown (${sb.adjustments.length} adjustment${sb.adjustments.length === 1 ? "" : "s"})`),
      h("table", {}, h("tbody", {}, rows)));
  }

  function bar(kind, detail, value, share, tone) {
    const fill = h("span", { class: "fill " + tone });
    fill.style.width = Math.max(2, Math.min(100, share * 100)).toFixed(1) + "%";
    return h("tr", {},
      h("th", { scope: "row" }, kind),
      h("td", { class: "bar" }, h("span", { class: "track", role: "img", "aria-label": `${kind} ${value}` }, fill)),
      h("td", { class: "value" }, value),
      h("td", { class: "detail" }, detail));
  }

  function renderSummary(res) {
    const s = res.retrieval_summary;
    const box = $("summary");
    const conflicts = s.conflicts.map((c) => {
      const loser = c.between.find((b) => b.doc_id !== c.winner.doc_id || b.label !== c.winner.label) || c.between[1];
      return h("li", { class: "conflict-item" },
        h("strong", {}, where(c.winner)), ` wins over ${where(loser)} `,
        h("span", { class: "tag" }, c.kind), ` by ${c.rule}: ${c.reason}`);
    });
    const named = s.query_analysis && s.query_analysis.named_document;
    box.replaceChildren(
      h("p", {}, `${s.primary_hits} direct hits, ${s.expanded} brought in by the graph, ` +
        `from ${s.documents_involved.length} documents` +
        (s.as_of_date ? `, as of ${s.as_of_date}` : "") + (s.scope_context ? `, scope ${s.scope_context}` : "") +
        (named ? `; the query names ${named.doc_id || JSON.stringify(named)}` : "") + "."),
      conflicts.length ? h("div", {}, h("h3", {}, `Conflicts (${conflicts.length})`), h("ul", { class: "conflicts" }, conflicts)) : null);
    box.hidden = false;
  }

  // --- the graph -------------------------------------------------------------------------

  function drawGraph() {
    const res = state.last;
    if (!res) return;
    const drawn = window.RaagGraph.draw($("graph"), res.results, res.result_graph, {
      hidden: state.hidden,
      onOpen: openResult,
      onEdge: showEdge,
    });
    const present = [...new Set(drawn.edges.map((e) => e.type))].sort();
    $("legend").replaceChildren(...present.map((type) => {
      const box = h("input", { type: "checkbox", checked: !state.hidden.has(type), "data-type": type,
        onchange: (ev) => { ev.target.checked ? state.hidden.delete(type) : state.hidden.add(type); drawGraph(); } });
      const swatch = h("span", { class: "swatch" });
      swatch.style.background = window.RaagGraph.COLORS[type] || "#444";
      const n = drawn.edges.filter((e) => e.type === type).length;
      return h("li", {}, h("label", {}, box, swatch, `${type} (${n})`));
    }));
    performance.mark("raag:graph-drawn");
  }

  function showEdge(e) {
    const box = $("edge-info");
    if (!e) return;
    const swatch = h("span", { class: "swatch" });
    swatch.style.background = window.RaagGraph.COLORS[e.type] || "#444";
    box.replaceChildren(
      h("p", {}, swatch, h("strong", { class: "edge-type" }, e.type), ` ${where(e.src)} → ${where(e.dst)}`,
        e.confidence != null ? ` · confidence ${e.confidence}` : "", e.layer ? ` · layer ${e.layer}` : ""),
      h("p", {}, "evidence: ", h("q", { class: "evidence" }, e.matched_text || "—")),
      h("p", {}, "rule: ", h("code", { class: "rule" }, e.rule || "—")),
      ...e.brought.map((b) => h("p", { class: "brought" }, `brought ${where(b.to)} in (depth ${b.depth})`)));
  }

  // --- a document, at the passage --------------------------------------------------------

  async function documentText(docId) {
    if (!state.texts.has(docId)) {
      const [text, tree] = await Promise.all([
        api(`/documents/${encodeURIComponent(docId)}/text`),
        api(`/sections?doc_id=${encodeURIComponent(docId)}`),
      ]);
      state.texts.set(docId, text);
      state.trees.set(docId, tree);
    }
    return { doc: state.texts.get(docId), tree: state.trees.get(docId) };
  }

  async function openResult(r) {
    await openDocument(r.doc_id, { start: r.char_start, end: r.char_end, sectionId: r.section_id, result: r });
  }

  async function openDocument(docId, at) {
    let loaded;
    try {
      loaded = await documentText(docId);
    } catch (err) {
      showError(explain(err));
      return;
    }
    const { doc, tree } = loaded;
    const info = (state.docs || []).find((d) => d.doc_id === docId) || {};
    $("doc-title").textContent = `${docId}${info.title ? " — " + info.title : ""}`;
    $("doc-layout").hidden = false;
    $("doc-close").hidden = false;
    const mark = renderText(doc.text, tree, at);
    const meta = [doc.format, doc.source_name, `${doc.length} characters`];
    if (at && at.start != null) {
      meta.push(`passage at ${at.start}–${at.end}`);
      if (doc.format === "pdf") meta.push(`page ${doc.text.slice(0, at.start).split("\f").length}`);
      if (at.result) meta.push(`in ${where(at.result)} ${at.result.heading || ""}`.trim());
    }
    $("doc-meta").textContent = meta.filter(Boolean).join(" · ");
    renderTree(tree, at && at.sectionId);
    const panel = $("doc-panel");
    const box = panel.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight * 0.6) panel.scrollIntoView({ block: "start" });
    $("doc-title").focus({ preventScroll: true });
    scrollWithin($("doc-text"), mark, 5);
    scrollWithin($("doc-tree"), $("doc-tree").querySelector("[aria-current]"), 3);
    performance.mark("raag:passage-shown");
  }

  function closeDocument() {
    $("doc-layout").hidden = true;
    $("doc-close").hidden = true;
    $("doc-title").textContent = "Passage";
    $("doc-meta").textContent = "Open a result (or a box of the graph) to read its passage in the document.";
    $("query").focus();
  }

  // scroll a box (not the page) so that `target` sits near its top, a few lines of context above
  function scrollWithin(box, target, lines) {
    if (!target) { box.scrollTop = 0; return; }
    box.scrollTop = Math.max(0, target.offsetTop - Math.min(box.clientHeight / 3, lines * 20));
  }

  /* The raw text with the passage [start, end) in a <mark> and an empty anchor at each
     section's start; a form feed (a PDF's page break) becomes a labelled rule. */
  function renderText(text, tree, at) {
    const pre = $("doc-text");
    pre.replaceChildren();
    const cuts = new Map();
    const cut = (pos, what) => { if (!cuts.has(pos)) cuts.set(pos, []); cuts.get(pos).push(what); };
    for (const s of tree) if (s.char_start != null) cut(s.char_start, { anchor: s.section_id });
    const marked = at && at.start != null && at.end > at.start;
    if (marked) { cut(at.end, { close: true }); cut(at.start, { open: true }); }
    const positions = [...cuts.keys()].sort((a, b) => a - b);
    let container = pre, pos = 0, page = 1, mark = null;
    const put = (upto) => {
      const parts = text.slice(pos, upto).split("\f");
      parts.forEach((part, i) => {
        if (i > 0) container.appendChild(h("span", { class: "page-break", "data-page": ++page }));
        if (part) container.appendChild(document.createTextNode(part));
      });
      pos = upto;
    };
    for (const p of positions) {
      put(Math.min(p, text.length));
      // close before opening at the same offset; anchors go in before the mark opens
      const order = (a) => (a.close ? 0 : a.anchor ? 1 : 2);
      const acts = cuts.get(p).sort((a, b) => order(a) - order(b));
      for (const act of acts) {
        if (act.close && mark) container = pre;
        else if (act.open) { mark = h("mark", { id: "passage" }); pre.appendChild(mark); container = mark; }
        else if (act.anchor) container.appendChild(h("span", { class: "anchor", id: "sec-" + act.anchor }));
      }
    }
    put(text.length);
    return mark;
  }

  function renderTree(tree, current) {
    const nav = $("doc-tree");
    const children = new Map();
    for (const s of tree) {
      const k = s.parent_id || "";
      if (!children.has(k)) children.set(k, []);
      children.get(k).push(s);
    }
    const list = (parent) => {
      const items = children.get(parent) || [];
      if (!items.length) return null;
      return h("ul", {}, items.map((s) => h("li", {},
        h("button", {
          type: "button", class: "sec",
          "aria-current": s.section_id === current ? "true" : null, "data-section": s.section_id,
          onclick: (ev) => {
            const anchor = document.getElementById("sec-" + s.section_id);
            if (anchor) scrollWithin($("doc-text"), anchor, 0);
            for (const b of nav.querySelectorAll(".sec")) b.removeAttribute("aria-current");
            ev.currentTarget.setAttribute("aria-current", "location");
          },
        }, `${s.label} ${s.heading || ""}`.trim(), s.page_start ? h("span", { class: "pg" }, ` p. ${s.page_start}`) : null),
        list(s.section_id))));
    };
    nav.replaceChildren(h("h3", {}, "Sections"), list("") || h("p", {}, "No sections."));
  }

  // --- documents -------------------------------------------------------------------------

  async function showDocuments() {
    try {
      const [docs, parked] = await Promise.all([loadDocuments(), api("/unresolved")]);
      renderTimeline(docs);
      renderParked(parked);
      showError("");
    } catch (err) {
      showError(explain(err));
    }
  }

  const day = (iso) => Date.parse(iso + "T00:00:00Z");

  function renderTimeline(docs) {
    const box = $("timeline");
    const today = new Date().toISOString().slice(0, 10);
    const dates = docs.flatMap((d) => [d.effective_from, d.in_force_to]).filter(Boolean);
    if (!dates.length) dates.push(today);
    const lo = Math.min(...dates.map(day)) - 180 * 864e5;
    const hi = Math.max(day(today), ...dates.map(day)) + 90 * 864e5;
    const at = (iso) => ((day(iso) - lo) / (hi - lo)) * 100;
    // a family (a document and its earlier versions) together, the live version last
    const family = (d) => d.version_of || d.doc_id;
    const sorted = [...docs].sort((a, b) => family(a).localeCompare(family(b)) || (a.version || 0) - (b.version || 0));
    const axis = h("div", { class: "axis", "aria-hidden": "true" });
    for (let y = new Date(lo).getUTCFullYear() + 1; day(`${y}-01-01`) < hi; y++) {
      const tick = h("span", { class: "tick" }, String(y));
      tick.style.left = at(`${y}-01-01`) + "%";
      axis.appendChild(tick);
    }
    const rows = sorted.map((d) => {
      const track = h("div", { class: "track" });
      if (d.effective_from) {
        const span = h("span", { class: "period" + (d.in_force_to ? "" : " open") + (d.version_of ? " earlier" : "") });
        span.style.left = at(d.effective_from) + "%";
        span.style.width = Math.max(0.8, (d.in_force_to ? at(d.in_force_to) : 100) - at(d.effective_from)) + "%";
        track.appendChild(span);
      } else {
        track.appendChild(h("span", { class: "undated" }, "no effective date"));
      }
      const now = h("span", { class: "now", title: "today" });
      now.style.left = at(today) + "%";
      track.appendChild(now);
      const rel = [];
      const names = (xs) => xs.join(", ");
      if (d.supersedes.length) rel.push(`supersedes ${names(d.supersedes)}`);
      if (d.superseded_by.length) rel.push(`superseded by ${names(d.superseded_by)}`);
      if (d.amends.length) rel.push(`amends ${names(d.amends)}`);
      if (d.amended_by.length) rel.push(`amended by ${names(d.amended_by)}`);
      return h("li", { class: "doc-row", "data-doc": d.doc_id },
        h("div", { class: "doc-name" },
          h("button", { type: "button", class: "open", onclick: () => { showView("search-view"); openDocument(d.doc_id, null); } }, d.doc_id),
          h("span", { class: "doc-title" }, d.title || ""),
          h("span", { class: "dates" }, `${d.version_of ? "earlier version " + d.version + " · " : ""}in force ${d.effective_from || "?"} → ${d.in_force_to || "now"}` +
            (d.effective_evidence ? ` (“${d.effective_evidence}”)` : "")),
          rel.length ? h("span", { class: "relations" }, rel.join(" · ")) : null),
        track);
    });
    box.replaceChildren(axis, h("ol", { class: "doc-rows" }, rows));
  }

  function renderParked(parked) {
    const body = $("parked").tBodies[0];
    body.replaceChildren(...parked.map((p) => h("tr", {},
      h("td", {}, where(p.src)), h("td", {}, h("q", {}, p.matched_text)), h("td", {}, p.reason))));
    if (!parked.length) body.appendChild(h("tr", {}, h("td", { colspan: 3 }, "None: every reference resolved.")));
  }

  // --- wiring ----------------------------------------------------------------------------

  function showView(id) {
    for (const tab of document.querySelectorAll(".tabs button")) {
      const on = tab.dataset.view === id;
      tab.setAttribute("aria-pressed", String(on));
      $(tab.dataset.view).hidden = !on;
    }
    if (id === "documents-view") showDocuments();
  }

  async function start() {
    const query = readFragment();
    $("tenant").value = sessionStorage.getItem("raag.tenant") || "";
    $("key").value = sessionStorage.getItem("raag.key") || "";
    if (query) $("query").value = query;
    $("access").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (await connect()) $("query").focus();
    });
    $("search-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (!state.key || state.tenant !== $("tenant").value.trim() || state.key !== $("key").value.trim()) {
        if (!(await connect())) return;
      }
      runSearch();
    });
    for (const tab of document.querySelectorAll(".tabs button")) {
      tab.addEventListener("click", () => showView(tab.dataset.view));
    }
    $("doc-close").addEventListener("click", closeDocument);
    document.addEventListener("keydown", (ev) => {
      const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName);
      if (ev.key === "/" && !typing) { ev.preventDefault(); showView("search-view"); $("query").focus(); }
      if (ev.key === "Escape" && !$("doc-layout").hidden) closeDocument();
    });
    if ($("tenant").value && $("key").value) {
      if ((await connect()) && query) await runSearch();
    } else {
      $("tenant").focus();
    }
  }

  start();
})();
