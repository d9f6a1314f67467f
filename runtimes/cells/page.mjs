/** What both page scripts share: the cells as rows of the page's table, and on `window.matrix` for the driver. */
globalThis.matrix ??= { cells: {}, done: [], codeGenerationForbidden: forbidden() };
const state = globalThis.matrix;

function forbidden() {
  try {
    new Function("return 1");
    return false;
  } catch {
    return true;
  }
}

export function report(script, cells) {
  const table = document.getElementById("cells");
  for (const [name, outcome] of Object.entries(cells)) {
    state.cells[name] = outcome;
    const row = table.insertRow();
    for (const text of [name, outcome.status, outcome.detail]) row.insertCell().textContent = text;
  }
  state.done.push(script);
}

export function showPartial(value) {
  document.getElementById("partials").textContent += `${JSON.stringify(value)}\n`;
}
