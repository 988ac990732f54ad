// The trust panel: the grants the broker holds (this session's and the saved ones), revoke one,
// clear the session. Saved ("always") grants survive a reload: the broker saves them to
// localStorage after every change.
import { describeError } from "./engine.js";
import { h } from "./dom.js";

/**
 * @param {{ root: HTMLElement, broker: () => any, session: string,
 *           report: (message: string) => void }} options
 */
export function trustPanel({ root, broker, session, report }) {
  const list = /** @type {HTMLElement} */ (root.querySelector("#grants"));
  const clear = /** @type {HTMLButtonElement} */ (root.querySelector("#clear-session"));

  function render() {
    let grants = [];
    try {
      grants = broker().trust.list();
    } catch (error) {
      report(`the grants could not be listed: ${describeError(error)}`);
    }
    list.replaceChildren();
    if (grants.length === 0) list.append(h("li", { class: "empty", text: "No grants yet. Tick “Remember” on a card to add one." }));
    for (const grant of grants) {
      const where = grant.scope === "session" ? `session ${grant.sessionId ?? ""}` : "saved";
      list.append(
        h(
          "li",
          { "data-rule": grant.rule, "data-scope": grant.scope, "data-id": grant.id },
          h("code", { text: grant.rule }),
          h("span", { class: "sub", text: ` ${where}${grant.agent ? ` · agent ${grant.agent}` : ""}` }),
          h("button", {
            type: "button",
            class: "revoke",
            "aria-label": `Revoke ${grant.rule} (${where})`,
            text: "Revoke",
            on: { click: () => act(() => broker().trust.revoke(grant.id)) },
          }),
        ),
      );
    }
  }

  function act(change) {
    try {
      change();
    } catch (error) {
      report(`the trust store refused: ${describeError(error)}`);
    }
    render();
  }

  clear.addEventListener("click", () => act(() => broker().trust.clearSession(session)));
  render();
  return { render };
}
