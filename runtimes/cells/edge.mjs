/** The Edge runtime's entry (a service-worker-style script): it forbids code generation at start-up too. */
import { compileAtStartup, handle } from "./handler.mjs";

const atStartup = { "compile-at-startup": compileAtStartup("forbidden") };

addEventListener("fetch", (event) => {
  event.respondWith(handle(event.request, atStartup));
});
