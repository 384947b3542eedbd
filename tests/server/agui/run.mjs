// The real AG-UI client (@ag-ui/client's HttpAgent) against `tether serve`.
// Usage: node run.mjs BASE_URL TOKEN THREAD_ID. Prints JSON on its last line.
import { HttpAgent } from "@ag-ui/client";

const [base, token, threadId] = process.argv.slice(2);
const auth = { Authorization: `Bearer ${token}` };
const url = `${base}/v1/agui/ops`;

// A fetch for HttpAgent that survives a dropped stream: it forwards the server's SSE
// frames a session event at a time (the frame with `id:` closes each), and when the
// connection drops it asks GET .../stream with Last-Event-ID and goes on. The agent
// sees one uninterrupted run. `dropAfter(frames)` decides when to drop (a test hook).
function resumableFetch(stats, dropAfter) {
  return async (target, init) => {
    const input = JSON.parse(init.body);
    const first = new AbortController();
    const response = await fetch(target, { ...init, signal: first.signal });
    if (!response.ok) return response;
    const encoder = new TextEncoder();
    const body = new ReadableStream({
      async start(controller) {
        let lastId = null;
        async function pump(res, drop) {
          const reader = res.body.getReader();
          const decoder = new TextDecoder();
          let buffer = "";
          let group = [];
          for (;;) {
            let chunk;
            try {
              chunk = await reader.read();
            } catch (e) {
              return "dropped";
            }
            if (chunk.done) break;
            buffer += decoder.decode(chunk.value, { stream: true });
            let end;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              const frame = buffer.slice(0, end + 2);
              buffer = buffer.slice(end + 2);
              if (frame.startsWith(":")) continue; // keep-alive
              group.push(frame);
              const id = frame.split("\n").find((l) => l.startsWith("id: "));
              if (id) {
                lastId = id.slice(4);
                stats.ids.push(Number(lastId));
                for (const f of group) controller.enqueue(encoder.encode(f));
                const frames = group;
                group = [];
                if (drop && drop(frames)) {
                  first.abort();
                  return "dropped";
                }
              }
            }
          }
          for (const f of group) controller.enqueue(encoder.encode(f));
          return "done";
        }
        let how = await pump(response, dropAfter);
        while (how === "dropped") {
          stats.reconnects.push(lastId);
          const again = await fetch(
            `${url}/${input.threadId}/stream?runId=${encodeURIComponent(input.runId)}`,
            // Without an id yet, the GET replays the run from its start.
            { headers: { ...auth, ...(lastId === null ? {} : { "Last-Event-ID": lastId }) } },
          );
          how = await pump(again, null);
        }
        controller.close();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

function makeAgent(options = {}) {
  return new HttpAgent({ url, headers: auth, threadId, ...options });
}

async function run(agent, params, message) {
  if (message) agent.addMessage({ id: message.id, role: "user", content: message.text });
  const events = [];
  const errors = [];
  await agent.runAgent(params, {
    onEvent: ({ event }) => { events.push(event); },
    onRunFailed: ({ error }) => { errors.push(String(error)); },
  }).catch((e) => errors.push(String(e)));
  return {
    events: events.map((e) => ({ ...e, timestamp: undefined })),
    types: events.map((e) => e.type),
    errors,
    messages: structuredClone(agent.messages),
    pendingInterrupts: structuredClone(agent.pendingInterrupts),
  };
}

const out = {};
const agent = makeAgent();
out.hello = await run(agent, { runId: "run-hello" }, { id: "m-hello", text: "hello there" });
out.check = await run(agent, { runId: "run-check" }, { id: "m-check", text: "check db" });

// An approval: the run ends with an interrupt, a resume approves it.
out.restart = await run(agent, { runId: "run-restart" }, { id: "m-restart", text: "restart api" });
const approval = agent.pendingInterrupts[0];
out.approved = await run(agent, {
  runId: "run-approve",
  resume: [{ interruptId: approval.id, status: "resolved", payload: { approved: true } }],
});

// A question, answered by a resume with one of its options.
out.ask = await run(agent, { runId: "run-ask" }, { id: "m-ask", text: "ask" });
const question = agent.pendingInterrupts[0];
out.answered = await run(agent, {
  runId: "run-answer",
  resume: [{ interruptId: question.id, status: "resolved", payload: { answer: "p1" } }],
});

// A dropped connection mid-turn: the stream goes on from the last event id.
const stats = { ids: [], reconnects: [] };
const resumable = makeAgent({
  fetch: resumableFetch(stats, (frames) => frames.some((f) => f.includes('"TOOL_CALL_START"'))),
});
resumable.setMessages(structuredClone(agent.messages));
out.dropped = await run(resumable, { runId: "run-drop" }, { id: "m-drop", text: "check db" });
out.dropStats = stats;

console.log(JSON.stringify(out));
