/**
 * ajv-formats' format checks, what a generated module's validators call for
 * `format` (`fullFormats.date`, …), behind a file of this package's own:
 * ajv-formats is CommonJS, and a bundler keeps a CommonJS module that an ES
 * module it keeps imports, used or not. Imported only from here, it leaves a
 * bundle with this file, when no validator in it has a `format`.
 */
export { fullFormats } from "ajv-formats/dist/formats.js";
