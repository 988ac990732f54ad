// zod probes for `new Function` unless told not to, and the page's CSP has no 'unsafe-eval'.
// Imported before the AI SDK so that the setting is in place before the SDK builds its schemas.
import { config } from "zod/v4/core";

config({ jitless: true });
