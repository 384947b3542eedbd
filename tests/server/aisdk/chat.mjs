// useChat's engine without React: the AI SDK's AbstractChat with DefaultChatTransport,
// against `tether serve`. Usage: node chat.mjs BASE_URL TOKEN CHAT_ID. Prints JSON.
import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
} from "ai";

const [base, token, chatId] = process.argv.slice(2);

// What @ai-sdk/react's Chat keeps in React state, kept in plain fields.
class State {
  constructor() {
    this.status = "ready";
    this.error = undefined;
    this.messages = [];
  }
  pushMessage = (m) => { this.messages = this.messages.concat(m); };
  popMessage = () => { this.messages = this.messages.slice(0, -1); };
  replaceMessage = (i, m) => {
    this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)];
  };
  snapshot = (thing) => structuredClone(thing);
}

class NodeChat extends AbstractChat {
  constructor(options) {
    super({ ...options, state: new State() });
  }
}

function makeChat() {
  return new NodeChat({
    id: chatId,
    transport: new DefaultChatTransport({
      api: `${base}/v1/ui/aisdk/chat`,
      headers: { Authorization: `Bearer ${token}` },
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onError: (e) => { errors.push(String(e)); },
  });
}

const errors = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function idle(chat) {
  for (let i = 0; i < 400 && (chat.status === "submitted" || chat.status === "streaming"); i++) {
    await sleep(25);
  }
}
const last = (chat) => chat.messages[chat.messages.length - 1];

const out = {};
const chat = makeChat();
await chat.sendMessage({ text: "hello there" });
await idle(chat);
out.hello = last(chat);

await chat.sendMessage({ text: "restart api" });
await idle(chat);
out.approvalRequested = structuredClone(last(chat));
const toolPart = last(chat).parts.find((p) => p.type === "dynamic-tool");
if (!toolPart) { console.log(JSON.stringify({debug: chat.messages, errors})); process.exit(3); }
await chat.addToolApprovalResponse({ id: toolPart.approval.id, approved: true });
await sleep(50);
await idle(chat);
out.approved = last(chat);

// Resume: another client joins the turn in progress and gets it replayed.
const sending = chat.sendMessage({ text: "check db" });
await sleep(150);
const other = makeChat();
await other.resumeStream();
await idle(other);
await sending;
await idle(chat);
out.resumed = last(other);
out.sender = last(chat);

// A tool that keeps a note in the session's declared state: the turn's last parts
// carry the state (data-tether-state).
await chat.sendMessage({ text: "note buy milk" });
await idle(chat);
out.noted = structuredClone(last(chat));
// Files: a message with file parts, as useChat sends a FileList (data: URLs).
const notes = Buffer.from("zwölf notes").toString("base64");
const png = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]).toString("base64");
await chat.sendMessage({
  text: "read this",
  files: [
    { type: "file", mediaType: "text/plain", filename: "notes.txt", url: `data:text/plain;base64,${notes}` },
    { type: "file", mediaType: "image/png", filename: "dot.png", url: `data:image/png;base64,${png}` },
  ],
});
await idle(chat);
out.files = last(chat);
out.fileMessage = chat.messages[chat.messages.length - 2];
// A workflow tool's question: a data part carries the request (options, display);
// it is answered over the sessions API.
await chat.sendMessage({ text: "ask" });
await idle(chat);
out.asked = structuredClone(last(chat));
const asked = last(chat).parts.find((p) => p.type === "data-tether-input");
if (asked) {
  const answer = (value) => fetch(
    `${base}/v1/sessions/${chatId}/requests/${encodeURIComponent(asked.id)}/answer`,
    {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ answer: value }),
    },
  );
  const label = await answer(asked.data.request.options[0].label);
  out.labelRefused = { status: label.status, body: await label.json() };
  out.answered = (await answer(asked.data.request.options[0].id)).status;
}
out.errors = errors;
out.status = chat.status;
console.log(JSON.stringify(out));
