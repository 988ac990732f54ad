// The inbox page in a browser tab: the page over the HTTP transport.
import { mountInbox } from "./inbox.js";
import { httpTransport } from "./inbox-http.js";

const root = document.getElementById("inbox");
if (root) window.toolgateInbox = mountInbox(root, httpTransport());
