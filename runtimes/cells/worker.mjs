/** The workerd entry (an ES module Worker, without nodejs_compat): compile runs once at start-up, where workerd allows code generation. */
import { compileAtStartup, handle } from "./handler.mjs";

const atStartup = { "compile-at-startup": compileAtStartup("allowed") };

export default {
  fetch(request) {
    return handle(request, atStartup);
  },
};
