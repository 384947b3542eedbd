// The tether inspector: sessions, runs and journals for an operator of `tether serve`.
// Plain browser JavaScript, served by the server itself: no build step, nothing fetched
// from anywhere but this origin. Every value from the server is put in the page as
// text (textContent), never as markup.
"use strict";

(() => {
  const TOKEN_KEY = "tether.inspector.token";
  const PAGE = 200; // events per timeline page: the first screen reads the tail only
  const view = document.getElementById("view");
  let stop = null; // ends the current view's live stream, if any

  // -- plumbing ---------------------------------------------------------------------------
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "on") for (const [e, f] of Object.entries(v)) el.addEventListener(e, f);
      else if (k in el && k !== "list") el[k] = v;
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : String(c));
    }
    return el;
  }
  const enc = encodeURIComponent;
  const token = () => sessionStorage.getItem(TOKEN_KEY);

  class Problem extends Error {
    constructor(status, body) {
      super((body && body.detail) || `HTTP ${status}`);
      this.status = status;
      this.code = body && body.code;
    }
  }

  async function api(path, init) {
    const headers = { Accept: "application/json", Authorization: `Bearer ${token()}` };
    if (init && init.body) headers["Content-Type"] = "application/json";
    const r = await fetch(path, { ...init, headers });
    const body = await r.json().catch(() => null);
    if (!r.ok) {
      const problem = new Problem(r.status, body);
      if (r.status === 401) signIn("That token is not valid here: " + problem.message);
      if (r.status === 403 && problem.code === "operator_only") refuse(problem.message);
      throw problem;
    }
    return body;
  }

  function signIn(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    show("signin");
    const error = document.getElementById("signin-error");
    error.hidden = !message;
    error.textContent = message || "";
    document.getElementById("token").focus();
  }

  function refuse(message) {
    show("refused");
    document.getElementById("refused-detail").textContent = message;
  }

  function show(which) {
    for (const id of ["signin", "refused"]) document.getElementById(id).hidden = id !== which;
    view.hidden = which !== "view";
    document.getElementById("signout").hidden = !token();
    document.body.dataset.state = which;
  }

  const time = (t) => (t ? new Date(t * 1000).toISOString().replace("T", " ").slice(0, 19) : "");
  const ago = (s) =>
    s === null || s === undefined
      ? "?"
      : s < 60 ? `${Math.round(s)} s` : s < 3600 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`;
  const json = (v) => (typeof v === "string" ? v : JSON.stringify(v, null, 1));
  const short = (v, n = 160) => {
    const s = typeof v === "string" ? v : JSON.stringify(v);
    return s && s.length > n ? s.slice(0, n) + "…" : s;
  };
  const badge = (text, kind) => h("span", { class: `badge ${kind || text}` }, text);
  const redacted = (why) =>
    h("span", { class: "redacted", title: why === "encrypted"
      ? "sealed with a key this server does not hold" : "deleted by retention or erasure" },
      `redacted (${why})`);
  const sessionLink = (id) => h("a", { href: `#/sessions/${enc(id)}` }, id);
  const runLink = (id) => h("a", { href: `#/runs/${enc(id)}` }, id);

  function traceCell(trace) {
    if (!trace) return "";
    return trace.url
      ? h("a", { href: trace.url, target: "_blank", rel: "noopener", class: "trace" }, trace.trace_id)
      : h("code", { class: "trace" }, trace.trace_id);
  }

  function params(hash) {
    const [path, q] = hash.split("?");
    return [path, new URLSearchParams(q || "")];
  }

  // -- views ------------------------------------------------------------------------------
  async function route() {
    if (stop) { stop(); stop = null; }
    document.getElementById("live").hidden = true;
    if (!token()) return signIn();
    const [path, query] = params(location.hash.replace(/^#/, "") || "/sessions");
    const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
    for (const a of document.querySelectorAll("[data-nav]"))
      a.classList.toggle("current", a.dataset.nav === parts[0]);
    delete view.dataset.ready;
    view.replaceChildren(h("p", { class: "loading" }, "Loading…"));
    show("view");
    try {
      if (parts[0] === "runs" && parts[1]) await runView(parts.slice(1).join("/"));
      else if (parts[0] === "runs") await runsView(query);
      else if (parts[0] === "sessions" && parts[1]) await sessionView(parts[1]);
      else if (parts[0] === "usage") await usageView(query);
      else await sessionsView(query);
    } catch (e) {
      if (e instanceof Problem && (e.status === 401 || e.code === "operator_only")) return;
      view.replaceChildren(h("p", { class: "error", role: "alert" }, e.message));
    }
  }

  function filterForm(fields, query, base) {
    const form = h("form", { class: "filters", id: "filters" });
    for (const f of fields) {
      const value = query.getAll(f.name).join(f.name === "label" ? "," : "");
      const input = f.options
        ? h("select", { name: f.name }, h("option", { value: "" }, `any ${f.name}`),
            f.options.map((o) => h("option", { value: o, selected: o === value }, o)))
        : h("input", { name: f.name, value, placeholder: f.placeholder || f.name });
      form.append(h("label", {}, f.label || f.name, " ", input));
    }
    form.append(h("button", { type: "submit" }, "Filter"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const q = new URLSearchParams();
      for (const [k, v] of new FormData(form)) {
        if (!v) continue;
        if (k === "label") for (const l of String(v).split(",")) q.append("label", l.trim());
        else q.set(k, v);
      }
      location.hash = `${base}${q.toString() ? "?" + q : ""}`;
    });
    return form;
  }

  function apiQuery(query, names) {
    const q = new URLSearchParams();
    for (const n of names) for (const v of query.getAll(n)) if (v) q.append(n, v);
    return q;
  }

  async function pagedTable(head, path, q, row, empty) {
    const body = h("tbody");
    const table = h("table", { class: "list" }, h("thead", {}, h("tr", {}, head.map((t) => h("th", {}, t)))), body);
    const more = h("button", { type: "button", class: "more", hidden: true }, "More");
    let cursor = null;
    async function load() {
      if (cursor) q.set("cursor", cursor);
      const page = await api(`${path}?${q}`);
      for (const item of page.items) body.append(row(item));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      if (!body.children.length) body.append(h("tr", {}, h("td", { colSpan: head.length, class: "empty" }, empty)));
    }
    more.addEventListener("click", load);
    await load();
    return [table, more];
  }

  async function sessionsView(query) {
    const form = filterForm(
      [
        { name: "state", options: ["idle", "running", "closed", "failed", "cancelled"] },
        { name: "agent" },
        { name: "tenant" },
        { name: "label", placeholder: "key=value" },
      ],
      query,
      "#/sessions"
    );
    const q = apiQuery(query, ["state", "agent", "tenant", "label"]);
    const [table, more] = await pagedTable(
      ["session", "agent", "tenant", "state", "opened", "updated"],
      "/v1/inspect/sessions",
      q,
      (s) => h("tr", { "data-session": s.session_id },
        h("td", {}, sessionLink(s.session_id)), h("td", {}, s.agent_name), h("td", {}, s.owner || ""),
        h("td", {}, badge(s.status)), h("td", {}, time(s.created_at)), h("td", {}, time(s.updated_at))),
      "No session matches."
    );
    view.replaceChildren(h("h1", {}, "Sessions"), form, table, more);
    view.dataset.ready = "sessions";
  }

  async function runsView(query) {
    const form = filterForm(
      [
        { name: "status", options: ["pending", "running", "completed", "failed", "cancelled", "continued"] },
        { name: "workflow" },
        { name: "label", placeholder: "key=value" },
      ],
      query,
      "#/runs"
    );
    const q = apiQuery(query, ["status", "workflow", "label"]);
    const [table, more] = await pagedTable(
      ["run", "workflow", "status", "generation", "deployment", "created", "trace"],
      "/v1/inspect/runs",
      q,
      (r) => h("tr", { "data-run": r.run_id },
        h("td", {}, runLink(r.run_id)), h("td", {}, r.workflow_name),
        h("td", {}, badge(r.status), r.stranded ? badge("stranded") : ""), h("td", {}, r.generation),
        h("td", {}, r.deployment), h("td", {}, time(r.created_at)), h("td", {}, traceCell(r.trace))),
      "No run matches."
    );
    view.replaceChildren(h("h1", {}, "Runs"), form, table, more);
    view.dataset.ready = "runs";
  }

  // -- usage across sessions --------------------------------------------------------------
  // A window's end as Unix seconds: Unix seconds, a span back from now (24h, 7d), or a
  // date the browser reads (2026-12-01, 2026-12-01T09:00Z).
  const SPAN = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
  function seconds(name, v) {
    if (!v) return null;
    if (/^-?[0-9]+(\.[0-9]+)?$/.test(v)) return v;
    const span = /^([0-9]+(?:\.[0-9]+)?)([smhdw])$/.exec(v);
    if (span) return String(Date.now() / 1000 - Number(span[1]) * SPAN[span[2]]);
    const at = Date.parse(v);
    if (Number.isNaN(at)) throw new Error(`${name} ${v} is not a time: give 2026-12-01, Unix seconds or a span such as 24h`);
    return String(at / 1000);
  }

  async function usageView(query) {
    const form = filterForm(
      [
        { name: "since", placeholder: "24h, 2026-12-01, Unix s" },
        { name: "until", placeholder: "now" },
        { name: "agent" },
        { name: "tenant" },
      ],
      query,
      "#/usage"
    );
    const q = apiQuery(query, ["agent", "tenant"]);
    for (const n of ["since", "until"]) {
      const at = seconds(n, query.get(n));
      if (at !== null) q.set(n, at);
    }
    const u = await api(`/v1/inspect/usage?${q}`);
    const number = (n) => h("td", { class: "num" }, Number(n || 0).toLocaleString("en"));
    const money = (c) => h("td", { class: "num" }, c === null || c === undefined ? "" : c.toFixed(6));
    const counts = (r) => [r.calls, r.input_tokens, r.cached_tokens, r.output_tokens].map(number);
    const grid = (id, head, rows) => h("table", { class: "list usage", id },
      h("thead", {}, h("tr", {}, head.map((t) => h("th", {}, t)))), h("tbody", {}, rows));
    const figures = ["calls", "input", "cached", "output", "cost"];
    const rows = u.rows.map((r) => h("tr", { "data-usage": `${r.tenant || ""}/${r.agent}/${r.model}` },
      h("td", {}, r.tenant || "—"), h("td", {}, r.agent), h("td", {}, r.model), counts(r), money(r.cost)));
    rows.push(h("tr", { class: "all" }, h("td", {}, "all"), h("td"), h("td"), counts(u.total), money(u.cost)));
    if (!u.rows.length) rows.unshift(h("tr", {}, h("td", { colSpan: 8, class: "empty" }, "No model call in the window.")));
    const tenants = u.by_tenant.map((t) => h("tr", { "data-tenant": t.tenant || "" },
      h("td", {}, t.tenant || "—"), counts(t), money(t.cost)));
    const notes = [`${u.sessions} session(s) with calls in the window`];
    if (u.unpriced.length) notes.push(`no price for ${u.unpriced.join(", ")} (not in cost)`);
    if (u.unreadable) notes.push(`${u.unreadable} session(s) whose events are gone, not counted`);
    if (u.retried && u.retried.calls) notes.push(retriedNote(u.retried));
    view.replaceChildren(
      h("h1", {}, "Usage"), form,
      grid("usage-rows", ["tenant", "agent", "model", ...figures], rows),
      h("p", { class: "note" }, notes.join(" · ")),
      h("h2", {}, "By tenant"), grid("usage-tenants", ["tenant", ...figures], tenants));
    view.dataset.ready = "usage";
  }

  // -- a session --------------------------------------------------------------------------
  async function sessionView(id) {
    const base = `/v1/inspect/sessions/${enc(id)}`;
    // The first screen waits for who the session is and the tail of its events only:
    // its state (a fold of all its events) and usage are read once it is drawn, so that
    // their reads do not hold up the first two on the server.
    const [summary, page] = await Promise.all([api(base), api(`${base}/events?start=-${PAGE}&limit=${PAGE}`)]);
    const head = h("section", { class: "summary", id: "summary" });
    const pending = h("section", { class: "pending", id: "pending" });
    const usage = h("section", { class: "usage", id: "usage" });
    const budgets = h("section", { class: "budgets", id: "budgets" });
    const runs = h("section", { class: "runs", id: "runs" });
    const timeline = h("ol", { class: "timeline", id: "timeline" });
    const earlier = h("button", { type: "button", class: "more", id: "earlier", hidden: true }, "Earlier events");
    view.replaceChildren(head, pending, runs, usage, budgets, h("h2", {}, "Timeline"), earlier, timeline);
    let current = null;
    drawSummary(head, runs, summary, current);

    const tl = new Timeline(timeline, id);
    if (page.redacted) timeline.append(h("li", { class: "event redacted-all" }, redacted("deleted"), " ", page.redacted));
    tl.add(page.events);
    let first = page.first;
    earlier.hidden = first <= 0;
    earlier.addEventListener("click", async () => {
      const from = Math.max(0, first - PAGE);
      const older = await api(`${base}/events?start=${from}&limit=${first - from}`);
      tl.prepend(older.events);
      first = from;
      earlier.hidden = first <= 0;
    });
    timeline.dataset.ready = "1";
    view.dataset.ready = "session";
    performance.mark("tether.first-screen"); // bench/inspector.py reads it

    const drawState = (s) => {
      current = s;
      drawSummary(head, runs, summary, s);
      drawPending(pending, id, s.pending);
    };
    const readUsage = () => api(`${base}/usage`).then((u) => drawUsage(usage, u)).catch(() => usage.replaceChildren())
      .then(() => api(`${base}/budgets`)).then((b) => drawBudgets(budgets, b)).catch(() => budgets.replaceChildren());
    api(`${base}/state`).then(drawState).catch(() => {}).then(() => {
      head.dataset.state = "1";
      performance.mark("tether.state-drawn");
      return readUsage();
    }).then(() => { usage.dataset.ready = "1"; });
    if (summary.redacted || page.redacted) return;
    let refresh = null;
    const again = () => {
      clearTimeout(refresh);
      refresh = setTimeout(async () => {
        try {
          Object.assign(summary, await api(base));
          drawState(await api(`${base}/state`));
          readUsage();
        } catch (e) { /* the next event tries again */ }
      }, 150);
    };
    stop = follow(`${base}/events?follow=true&format=ndjson`, page.next_offset, (event) => {
      tl.add([event]);
      if (/^(input\.|turn\.|session\.|authorization\.)/.test(event.type)) again();
    });
  }

  function follow(path, start, onEvent) {
    const live = document.getElementById("live");
    const abort = new AbortController();
    let next = start;
    let ended = false;
    (async () => {
      while (!ended) {
        try {
          const r = await fetch(`${path}&start=${next}`, {
            headers: { Authorization: `Bearer ${token()}` }, signal: abort.signal,
          });
          if (!r.ok) break;
          live.hidden = false;
          const reader = r.body.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            let nl;
            while ((nl = buffer.indexOf("\n")) >= 0) {
              const line = buffer.slice(0, nl).trim();
              buffer = buffer.slice(nl + 1);
              if (!line) continue; // a keep-alive
              const event = JSON.parse(line);
              if (event.index < next) continue;
              next = event.index + 1;
              onEvent(event);
            }
          }
        } catch (e) {
          if (abort.signal.aborted) return;
        }
        live.hidden = true;
        // The stream ends with its session, or when the server stops: go on by offset.
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    return () => { ended = true; abort.abort(); live.hidden = true; };
  }

  function drawSummary(head, runs, s, now) {
    const st = (now && now.state) || {};
    const progress = (now && now.progress) || {};
    const waiting = now ? "" : h("span", { class: "loading" }, "reading…");
    head.replaceChildren(
      h("h1", {}, "Session ", h("code", {}, s.session_id)),
      h("dl", { class: "facts" },
        h("dt", {}, "agent"), h("dd", {}, s.agent || "?"),
        h("dt", {}, "tenant"), h("dd", {}, s.owner || "?"),
        h("dt", {}, "state"), h("dd", { id: "session-state" }, now ? badge(st.status || "unknown") : waiting,
          st.stranded ? badge("stranded") : ""),
        h("dt", {}, "progress"), h("dd", {}, progress.state ? badge(progress.state) : waiting, " ", progress.reason || ""),
        h("dt", {}, "deployment"), h("dd", {}, st.deployment || (s.runs.length ? s.runs[s.runs.length - 1].deployment : "")),
        h("dt", {}, "events"), h("dd", {}, s.tail)),
      s.redacted ? h("p", { class: "redacted-all" }, redacted("deleted"), " ", s.redacted) : ""
    );
    runs.replaceChildren(
      h("h2", {}, `Runs (${s.runs.length})`),
      h("table", { class: "list" },
        h("thead", {}, h("tr", {}, ["generation", "run", "status", "deployment", "started", "trace"].map((t) => h("th", {}, t)))),
        h("tbody", {}, s.runs.map((r) => h("tr", {},
          h("td", {}, r.generation), h("td", {}, runLink(r.run_id)), h("td", {}, badge(r.status)),
          h("td", {}, r.deployment), h("td", {}, time(r.created_at)), h("td", {}, traceCell(r.trace)))))));
  }

  function drawPending(box, sessionId, pending) {
    box.replaceChildren();
    if (!pending || !pending.length) return;
    box.append(h("h2", {}, "Waiting for an answer"));
    for (const r of pending) {
      const error = h("p", { class: "error answer-error", role: "alert", hidden: true });
      const send = async (answer) => {
        error.hidden = true;
        try {
          await api(`/v1/inspect/sessions/${enc(sessionId)}/requests/${enc(r.request_id)}/answer`, {
            method: "POST", body: JSON.stringify({ answer }),
          });
          card.classList.add("answered");
          card.querySelectorAll("button").forEach((b) => (b.disabled = true));
        } catch (e) {
          error.hidden = false;
          error.textContent = e.message;
        }
      };
      const actions = h("div", { class: "actions" });
      if (r.kind === "approval") {
        actions.append(
          h("button", { type: "button", class: "approve", on: { click: () => send("approve") } }, "Approve"),
          h("button", { type: "button", class: "deny", on: { click: () => send("deny") } }, "Deny"));
      } else if (r.kind === "budget") {
        // Raising the budget answers the request (the turn resumes); a no fails the turn.
        const limit = h("input", { class: "budget-tokens", type: "number", min: "0", placeholder: "new token limit" });
        const raise = async () => {
          error.hidden = true;
          try {
            await raiseBudget(sessionId, r.data, { tokens: Number(limit.value) });
            card.classList.add("answered");
            card.querySelectorAll("button").forEach((b) => (b.disabled = true));
          } catch (e) {
            error.hidden = false;
            error.textContent = e.message;
          }
        };
        actions.append(limit,
          h("button", { type: "button", class: "raise", on: { click: raise } }, "Raise"),
          h("button", { type: "button", class: "deny", on: { click: () => send("deny") } }, "Deny"));
      } else if (r.kind === "authorization") {
        actions.append(h("button", { type: "button", on: { click: () => send({ authorized: true }) } }, "Authorized"));
      } else if (r.options && r.options.length) {
        for (const o of r.options) {
          const oid = typeof o === "string" ? o : o.id;
          actions.append(h("button", { type: "button", class: "option", on: { click: () => send(oid) } },
            typeof o === "string" ? o : o.label || o.id));
        }
      } else {
        const text = h("input", { class: "answer-text", placeholder: "answer" });
        actions.append(text, h("button", { type: "button", on: { click: () => send(text.value) } }, "Answer"));
      }
      const card = h("div", { class: "request", "data-request": r.request_id },
        h("div", {}, badge(r.kind), " ", h("strong", {}, r.tool_name || r.prompt || r.request_id),
          " ", h("span", { class: "age" }, `asked ${ago(r.age)} ago`)),
        r.prompt && r.tool_name ? h("p", {}, r.prompt) : "",
        r.data && Object.keys(r.data).length ? h("pre", {}, json(r.data)) : "",
        h("p", { class: "who" }, "may answer: ", [r.principal, ...(r.approvers || [])].filter(Boolean).join(", ") || "anyone"),
        actions, error);
      box.append(card);
    }
  }

  // A budget's raise route: a session's own, or an agent's or a tenant's.
  function raiseBudget(sessionId, b, limits) {
    const path = b.scope_kind === "session"
      ? `/v1/sessions/${enc(sessionId)}/budget/raise`
      : `/v1/budgets/${enc(b.scope_kind)}/${enc(b.scope_name)}/raise`;
    return api(path, { method: "POST", body: JSON.stringify(limits) });
  }

  function drawBudgets(box, list) {
    box.replaceChildren();
    if (!list.budgets || !list.budgets.length) return;
    const num = (v) => (v === null || v === undefined ? "no limit" : v.toLocaleString());
    box.append(h("h2", {}, "Budgets"), h("table", {},
      h("thead", {}, h("tr", {}, ["scope", "tokens used + reserved / limit", "cost used + reserved / limit", "over it"].map((c) => h("th", {}, c)))),
      h("tbody", {}, list.budgets.map((b) => h("tr", { "data-scope": b.scope },
        h("td", {}, b.scope),
        h("td", {}, `${b.used_tokens.toLocaleString()} + ${b.reserved_tokens.toLocaleString()} / ${num(b.tokens)}`),
        h("td", {}, b.cost === null ? "no limit" : `${b.used_cost.toFixed(4)} + ${b.reserved_cost.toFixed(4)} / ${b.cost.toFixed(4)}`),
        h("td", {}, b.on_exceeded === "ask" ? "asks for more" : "fails the turn"))))));
  }

  function drawUsage(box, u) {
    const t = u.total || {};
    box.replaceChildren(
      h("h2", {}, "Usage"),
      h("p", {}, `${t.calls || 0} model calls, ${t.input_tokens || 0} input and ${t.output_tokens || 0} output tokens`,
        u.cost !== null && u.cost !== undefined ? `, cost ${u.cost.toFixed(4)}` : ""),
      u.retried && u.retried.calls ? h("p", { class: "note retried" }, retriedNote(u.retried)) : "");
  }

  // Calls whose reply never committed and that a later attempt made again (both paid).
  function retriedNote(r) {
    return `${r.calls} of the calls (${r.input_tokens + r.output_tokens} tokens) retried: their replies ` +
      "never committed and a later attempt called the model again (counted above)";
  }

  // The events of a session as rows; a model's streamed deltas are one growing row until
  // its message completes.
  class Timeline {
    constructor(list, sessionId) { this.list = list; this.sessionId = sessionId; this.streaming = null; this.next = 0; }

    // A new session holding the history up to this turn's end (the original is only read).
    forkButton(e) {
      if (!this.sessionId) return "";
      const error = h("span", { class: "error fork-error", role: "alert", hidden: true });
      const fork = async () => {
        error.hidden = true;
        try {
          const made = await api(`/v1/inspect/sessions/${enc(this.sessionId)}/fork`, {
            method: "POST", body: JSON.stringify({ at_event: e.index }),
          });
          location.hash = `#/sessions/${enc(made.session_id)}`;
        } catch (err) {
          error.hidden = false;
          error.textContent = err.message;
        }
      };
      return h("span", { class: "fork" },
        h("button", { type: "button", class: "fork", title: "a new session with the history up to here", on: { click: fork } }, "Fork here"),
        error);
    }

    add(events) {
      const frag = document.createDocumentFragment();
      for (const e of events) {
        this.next = Math.max(this.next, e.index + 1);
        if (e.type === "message.delta") {
          if (!this.streaming) {
            this.streaming = this.row(e, "message", h("span", { class: "text" }, ""));
            frag.append(this.streaming);
          }
          this.streaming.querySelector(".text").append(e.data.text || "");
          continue;
        }
        if (e.type === "message.completed" && this.streaming) {
          this.streaming.remove();
          this.streaming = null;
        }
        frag.append(this.render(e));
      }
      this.list.append(frag);
    }

    prepend(events) {
      const saved = this.streaming;
      const list = this.list;
      const holder = document.createElement("ol");
      this.list = holder;
      this.streaming = null;
      this.add(events.filter((e) => e.type !== "message.delta"));
      this.list = list;
      this.streaming = saved;
      list.prepend(...holder.children);
    }

    row(e, label, ...body) {
      const m = e.meta || {};
      return h("li", { class: `event ${e.type.replace(/\./g, "-")}`, "data-index": e.index, "data-type": e.type },
        h("span", { class: "index" }, e.index),
        h("time", {}, time(m.at).slice(11)),
        h("span", { class: "type" }, label || e.type),
        h("span", { class: "step", title: "the turn's step that emitted it, and its attempt" },
          m.stepIndex === null || m.stepIndex === undefined ? "" : `step ${m.stepIndex}`,
          m.attempt > 1 ? badge(`attempt ${m.attempt}`, "retry") : ""),
        h("span", { class: "body" }, ...body));
    }

    render(e) {
      const d = e.data || {};
      switch (e.type) {
        case "turn.started":
          return this.row(e, "turn", h("strong", {}, d.principal || ""), " ", d.text);
        case "message.completed":
          return this.row(e, "message", h("span", { class: "text" }, d.text || ""),
            (d.tool_calls || []).length ? h("span", { class: "calls" }, `calls ${d.tool_calls.map((c) => c.name).join(", ")}`) : "",
            d.usage ? h("span", { class: "tokens" }, `${d.usage.model}: ${d.usage.input_tokens}→${d.usage.output_tokens} tokens`) : "");
        case "tool.call":
          return this.row(e, "tool call", h("code", {}, d.name), h("pre", { class: "args" }, json(d.arguments || {})));
        case "tool.result":
          return this.row(e, "tool result", h("code", {}, d.name), " ", badge(d.outcome || "ok"),
            h("pre", { class: "result" }, short(d.content, 2000)));
        case "input.requested":
        case "authorization.required": {
          const r = d.request || {};
          return this.row(e, "asks", badge(r.kind || "input"), " ", r.tool_name || r.prompt || "", " ", h("code", {}, r.request_id));
        }
        case "input.resolved":
          return this.row(e, "answered", badge(d.outcome || "answered"), " by ", d.by || "?", " ", short(d.answer));
        case "session.moved":
          return this.row(e, d.reason === "compaction" ? "compaction" : "hand-off",
            `goes on in run `, runLink(d.run_id), ` (generation ${d.generation}, ${d.reason}, deployment ${d.deployment})`);
        case "turn.completed":
          return this.row(e, "turn done", d.usage ? `${d.usage.input_tokens}→${d.usage.output_tokens} tokens` : "",
            this.forkButton(e));
        case "turn.failed":
          return this.row(e, "turn failed", h("span", { class: "error" }, d.error), this.forkButton(e));
        case "turn.cancelled":
          return this.row(e, "turn cancelled", d.reason || "", this.forkButton(e));
        default:
          return this.row(e, e.type, short(d));
      }
    }
  }

  // -- a run ------------------------------------------------------------------------------
  function content(value, why) {
    if (why) return redacted(why);
    if (value === null || value === undefined) return "";
    return h("pre", {}, short(json(value), 4000));
  }

  // Fork from a step, or resume: a new run (the one shown is only read), then go to it.
  // Runs of tether's own workflows (a session's, a scheduler's) are not forked.
  function runControls(r) {
    if (r.workflow_name.startsWith("tether.")) return [null, () => ""];
    const input = h("input", { id: "new-args", class: "new-args",
      placeholder: "new input: a JSON array of arguments (empty: the same input)" });
    const error = h("p", { class: "error run-error", role: "alert", hidden: true });
    const start = async (verb, body) => {
      error.hidden = true;
      try {
        const text = input.value.trim();
        if (text) {
          const args = JSON.parse(text);
          if (!Array.isArray(args)) throw new Error("the new input is a JSON array of arguments");
          body.args = args;
        }
        const made = await api(`/v1/inspect/runs/${enc(r.run_id)}/${verb}`, { method: "POST", body: JSON.stringify(body) });
        location.hash = `#/runs/${enc(made.run_id)}`;
      } catch (e) {
        error.hidden = false;
        error.textContent = e.message;
      }
    };
    const resumable = r.status === "failed" || r.status === "cancelled";
    const box = h("section", { class: "run-controls", id: "run-controls" },
      input,
      resumable ? h("button", { type: "button", class: "resume", title: "a new run from where this one ended",
        on: { click: () => start("resume", {}) } }, "Resume") : "",
      error);
    const forkButton = (slot) => h("button", { type: "button", class: "fork-step",
      title: "a new run replaying the steps before this one", on: { click: () => start("fork", { from_step: slot }) } },
      "Fork from this step");
    return [box, forkButton];
  }

  async function runView(id) {
    const d = await api(`/v1/inspect/runs/${enc(id)}`);
    const r = d.run;
    const p = d.progress || {};
    const [controls, forkButton] = runControls(r);
    const steps = h("tbody", {}, d.steps.map((s) => h("tr", { "data-slot": s.slot, class: s.attempt > 1 ? "retried" : "" },
      h("td", {}, s.slot), h("td", {}, h("code", { title: s.name }, s.name.split("//").pop())), h("td", {}, badge(s.status)),
      h("td", {}, s.attempt, s.attempt > 1 ? badge("retried", "retry") : ""),
      h("td", {}, s.completed_at ? `${((s.completed_at - s.started_at) * 1000).toFixed(1)} ms` : ""),
      h("td", {}, content(s.input, s.redacted.input)),
      h("td", {}, s.status === "failed" || s.error ? content(s.error, s.redacted.error) : content(s.output, s.redacted.output)),
      h("td", {}, forkButton(s.slot)))));
    view.replaceChildren(
      h("h1", {}, "Run ", h("code", {}, r.run_id)),
      h("dl", { class: "facts" },
        h("dt", {}, "workflow"), h("dd", {}, r.workflow_name),
        h("dt", {}, "status"), h("dd", {}, badge(r.status), r.stranded ? badge("stranded") : ""),
        h("dt", {}, "chain"), h("dd", {}, runLink(r.chain_id), ` generation ${r.generation}`,
          r.continued_to ? h("span", {}, " → ", runLink(r.continued_to)) : ""),
        d.session_id ? [h("dt", {}, "session"), h("dd", {}, sessionLink(d.session_id))] : "",
        h("dt", {}, "deployment"), h("dd", {}, `${r.deployment} (tether ${r.engine_version})`),
        h("dt", {}, "created"), h("dd", {}, time(r.created_at)),
        h("dt", {}, "holder"), h("dd", {}, p.holder || "none", p.holder_alive === false ? badge("not alive", "failed") : ""),
        h("dt", {}, "trace"), h("dd", { id: "trace" }, traceCell(r.trace) || "none"),
        h("dt", {}, "labels"), h("dd", {}, Object.entries(r.labels).map(([k, v]) => h("code", { class: "label" }, `${k}=${v}`)))),
      controls,
      h("h2", {}, "Input"), h("div", { id: "run-input" }, content(d.input, d.redacted.input)),
      h("h2", {}, r.status === "failed" ? "Error" : "Output"),
      h("div", { id: "run-output" }, r.status === "failed" ? content(d.error, d.redacted.error) : content(d.output, d.redacted.output)),
      h("h2", {}, `Journal (${d.steps.length} steps)`),
      h("table", { class: "list journal", id: "journal" },
        h("thead", {}, h("tr", {}, ["slot", "step", "status", "attempts", "took", "input", "output / error", ""].map((t) => h("th", {}, t)))),
        steps));
    view.dataset.ready = "run";
  }

  // -- start ------------------------------------------------------------------------------
  document.getElementById("signin").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, document.getElementById("token").value.trim());
    document.getElementById("token").value = "";
    route();
  });
  document.getElementById("signout").addEventListener("click", () => { signIn(); });
  window.addEventListener("hashchange", route);
  route();
})();
