/**
 * The mistakes, as edits of a valid value's wire text. Each is something a
 * model plausibly writes; `note` says why. Facts: the member's path in the
 * original value's terms (for a missing member, its parent object's path;
 * omitted at the root) and what the feedback must mention.
 */
import type { CompileOptions } from "@strictwire/codec";
import type { Facts, Kind, Mention } from "./corpus.js";

export interface Spec {
  readonly schema: string;
  readonly name: string;
  readonly kind: Kind;
  readonly options?: CompileOptions;
  /** A valid value of the schema; its encoding is the text the edit starts from. */
  readonly value: unknown;
  /** The edit: a function of the wire text (see `rep`). */
  readonly edit: (text: string) => string;
  readonly expectedCode?: string;
  readonly facts: Facts;
  readonly note: string;
}

/** Replace the first occurrence of `from` (which must occur) by `to`. */
export const rep =
  (from: string, to: string) =>
  (text: string): string => {
    const at = text.indexOf(from);
    if (at < 0) throw new Error(`edit matches nothing: ${from}`);
    return text.slice(0, at) + to + text.slice(at + from.length);
  };

/** Apply several edits in order. */
export const all =
  (...edits: ((t: string) => string)[]) =>
  (text: string): string =>
    edits.reduce((t, e) => e(t), text);

/** Cut the text just after the first occurrence of `marker` (a truncated output). */
export const cutAfter =
  (marker: string) =>
  (text: string): string => {
    const at = text.indexOf(marker);
    if (at < 0) throw new Error(`cut marker not found: ${marker}`);
    return text.slice(0, at + marker.length);
  };

// Ways of saying the same rule; any one will do.
const atLeast = (n: number): Mention => [
  `>= ${n}`,
  `at least ${n}`,
  `minimum ${n}`,
  `minimum: ${n}`,
  `minimum of ${n}`,
];
const atMost = (n: number): Mention => [`<= ${n}`, `at most ${n}`, `maximum ${n}`, `maximum: ${n}`, `maximum of ${n}`];
const TAG_ABSENT = '"state":"absent"';
const TAG_PRESENT = '"state":"present"';
const IT = "issue-tracker-create-issue";
const UC = "update-customer-patch";
const EV = "create-event-recurrence";

const issue = {
  project: "WEB",
  title: "Login button does nothing",
  priority: "high",
  milestone: 3,
  labels: ["bug"],
  assignee: "ana@example.com",
  due_on: "2026-12-24",
};
const issueWithSubtasks = {
  project: "API",
  title: "Rate limits",
  body: "See the incident report from Tuesday: the gateway returned 429 for every tenant.",
  estimate_hours: 2.5,
  subtasks: [{ title: "Write the test" }, { title: "Fix it", done: true, points: 3 }],
};
const customer = { id: "cus_9s8d7f", email: null, name: "Ana Lima", metadata: { crm_id: "88213", legacy: null } };
const customerAddress = {
  id: "cus_A1",
  phone: "+351912345678",
  tax_status: "exempt",
  credit_limit_cents: 500000,
  address: { line1: "Rua Augusta 1", country: "PT", postal_code: null },
};
const weekly = {
  title: "Standup",
  start: "2026-12-07T09:30:00Z",
  end: "2026-12-07T09:45:00Z",
  timezone: "Europe/Lisbon",
  recurrence: { freq: "weekly", byDay: ["MO", "WE", "FR"] },
};
const daily = {
  title: "Review",
  start: "2026-12-07T14:00:00+01:00",
  attendees: [{ email: "ana@example.com" }, { email: "li@example.com", optional: true }],
  recurrence: { freq: "daily", interval: 2, until: "2027-01-31" },
};

export const SPECS: readonly Spec[] = [
  // ── wrong tag ────────────────────────────────────────────────────────────
  {
    schema: IT,
    name: "body-state-missing",
    kind: "wrong-tag",
    value: issue,
    edit: rep('"body":{"state":"absent"}', '"body":{"state":"missing"}'),
    facts: { path: "/body", mentions: ["missing", TAG_ABSENT, TAG_PRESENT] },
    note: "the model paraphrases 'absent' with a synonym",
  },
  {
    schema: UC,
    name: "phone-state-null",
    kind: "wrong-tag",
    value: customer,
    edit: rep('"phone":{"state":"absent"}', '"phone":{"state":"null"}'),
    facts: { path: "/phone", mentions: ['"null"', TAG_ABSENT, TAG_PRESENT] },
    note: "to clear the phone the model writes the state it means instead of present with a null value",
  },
  {
    schema: EV,
    name: "end-state-omitted",
    kind: "wrong-tag",
    value: daily,
    edit: rep('"end":{"state":"absent"}', '"end":{"state":"omitted"}'),
    facts: { path: "/end", mentions: ["omitted", TAG_ABSENT, TAG_PRESENT] },
    note: "another synonym of absent",
  },
  {
    schema: IT,
    name: "milestone-present-without-value",
    kind: "wrong-tag",
    value: issue,
    edit: rep('"milestone":{"state":"present","value":3}', '"milestone":{"state":"present"}'),
    facts: { path: "/milestone", mentions: ["value", TAG_ABSENT, TAG_PRESENT] },
    note: "the model marks the member present but forgets the value",
  },
  {
    schema: UC,
    name: "email-absent-with-value",
    kind: "wrong-tag",
    value: customer,
    edit: rep('"email":{"state":"present","value":null}', '"email":{"state":"absent","value":null}'),
    facts: { path: "/email", mentions: [TAG_ABSENT, TAG_PRESENT] },
    note: "to clear the email the model writes absent and a null value",
  },
  {
    schema: "settings-flat-patch",
    name: "name-state-set",
    kind: "wrong-tag",
    value: { name: "Grace" },
    edit: rep('"name":{"state":"present","value":"Grace"}', '"name":{"state":"set","value":"Grace"}'),
    facts: { path: "/name", mentions: ['"set"', TAG_ABSENT, TAG_PRESENT] },
    note: "PATCH vocabulary: set instead of present",
  },
  {
    schema: EV,
    name: "nested-interval-state-none",
    kind: "wrong-tag",
    value: weekly,
    edit: rep('"interval":{"state":"absent"}', '"interval":{"state":"none"}'),
    facts: { path: "/recurrence/interval", mentions: ['"none"', TAG_ABSENT, TAG_PRESENT] },
    note: "a synonym of absent inside a union branch",
  },
  {
    schema: IT,
    name: "compact-body-state-absent",
    kind: "wrong-tag",
    options: { presence: "compact" },
    value: issue,
    edit: rep('"body":null', '"body":{"state":"absent"}'),
    facts: { path: "/body", mentions: ["null"] },
    note: "compact presence: the model writes the tagged form it has seen elsewhere instead of null",
  },
  // ── bare value where a tag is due ────────────────────────────────────────
  {
    schema: IT,
    name: "milestone-bare-number",
    kind: "bare-value",
    value: issue,
    edit: rep('"milestone":{"state":"present","value":3}', '"milestone":3'),
    facts: { path: "/milestone", mentions: [TAG_PRESENT, TAG_ABSENT] },
    note: "the most common slip: the plain value, as in an ordinary schema",
  },
  {
    schema: UC,
    name: "name-bare-string",
    kind: "bare-value",
    value: customer,
    edit: rep('"name":{"state":"present","value":"Ana Lima"}', '"name":"Ana Lima"'),
    facts: { path: "/name", mentions: [TAG_PRESENT, "Ana Lima"] },
    note: "plain value for a nullable optional member",
  },
  {
    schema: UC,
    name: "email-bare-null",
    kind: "bare-value",
    value: customer,
    edit: rep('"email":{"state":"present","value":null}', '"email":null'),
    facts: { path: "/email", mentions: [TAG_PRESENT, TAG_ABSENT] },
    note: "to clear a field the model writes null, as in a plain PATCH body",
  },
  {
    schema: EV,
    name: "reminder-bare-number",
    kind: "bare-value",
    value: weekly,
    edit: rep('"reminder_minutes":{"state":"absent"}', '"reminder_minutes":15'),
    facts: { path: "/reminder_minutes", mentions: [TAG_PRESENT, "15"] },
    note: "the model adds a reminder the plain way",
  },
  {
    schema: IT,
    name: "subtask-done-bare-boolean",
    kind: "bare-value",
    value: issueWithSubtasks,
    edit: rep('"done":{"state":"present","value":true}', '"done":true'),
    facts: { path: "/subtasks/1/done", mentions: [TAG_PRESENT] },
    note: "a bare value inside an array item",
  },
  {
    schema: "settings-nested-patch",
    name: "theme-bare-string",
    kind: "bare-value",
    value: { settings: { timezone: null } },
    edit: rep('"theme":{"state":"absent"}', '"theme":"dark"'),
    facts: { path: "/settings/theme", mentions: [TAG_PRESENT, "dark"] },
    note: "bare value in a nested PATCH object",
  },
  {
    schema: "send-notification-discriminated",
    name: "priority-bare-string",
    kind: "bare-value",
    value: { channel: { type: "email", to: "grace@example.com" }, message: "Hi" },
    edit: rep('"priority":{"state":"absent"}', '"priority":"high"'),
    facts: { path: "/priority", mentions: [TAG_PRESENT, "high"] },
    note: "plain enum value for an optional member",
  },
  // ── member left out ──────────────────────────────────────────────────────
  {
    schema: IT,
    name: "title-left-out",
    kind: "missing-member",
    value: issue,
    edit: rep('"title":"Login button does nothing",', ""),
    facts: { mentions: ["title", ["required", "missing"]] },
    note: "a required member forgotten",
  },
  {
    schema: EV,
    name: "start-left-out",
    kind: "missing-member",
    value: weekly,
    edit: rep('"start":"2026-12-07T09:30:00Z",', ""),
    facts: { mentions: ["start", ["required", "missing"]] },
    note: "a required member forgotten",
  },
  {
    schema: IT,
    name: "optional-body-left-out",
    kind: "missing-member",
    value: issue,
    edit: rep('"body":{"state":"absent"},', ""),
    facts: { mentions: ["body", TAG_ABSENT] },
    note: "an optional member the model did not want is simply left out instead of tagged absent",
  },
  {
    schema: UC,
    name: "optional-members-left-out",
    kind: "missing-member",
    value: customer,
    edit: all(rep('"phone":{"state":"absent"},', ""), rep('"address":{"state":"absent"},', "")),
    facts: { mentions: ["phone", "address", TAG_ABSENT] },
    note: "PATCH habit: send only what changes",
  },
  {
    schema: UC,
    name: "address-country-left-out",
    kind: "missing-member",
    value: customerAddress,
    edit: rep(',"country":"PT"', ""),
    facts: { path: "/address", mentions: ["country"] },
    note: "a required member of a nested nullable object",
  },
  {
    schema: "create-shipment-refs",
    name: "recipient-city-left-out",
    kind: "missing-member",
    value: {
      sender: { name: "Acme", address: { line1: "1 Main St", city: "Springfield", country: "US" } },
      recipient: { name: "Grace", address: { line1: "2 Rue X", city: "Paris", country: "FR" } },
      parcels: [{ weight_kg: 1.2 }],
    },
    edit: rep('"city":"Paris",', ""),
    facts: { path: "/recipient/address", mentions: ["city"] },
    note: "a required member inside a referenced definition",
  },
  {
    schema: "create-invoice-array-objects",
    name: "line-item-quantity-left-out",
    kind: "missing-member",
    value: { customer_id: "c_1", line_items: [{ sku: "A", quantity: 1, unit_price: 10 }] },
    edit: rep('"quantity":1,', ""),
    facts: { path: "/line_items/0", mentions: ["quantity"] },
    note: "a required member of an array item",
  },
  // ── undeclared member ────────────────────────────────────────────────────
  {
    schema: IT,
    name: "severity-undeclared",
    kind: "undeclared-member",
    value: issue,
    edit: rep('"priority":{', '"severity":"high","priority":{'),
    facts: { mentions: ["severity", "priority"] },
    note: "a member from another tracker's vocabulary",
  },
  {
    schema: UC,
    name: "notes-undeclared",
    kind: "undeclared-member",
    value: customer,
    edit: rep('"id":"cus_9s8d7f",', '"id":"cus_9s8d7f","notes":"VIP customer",'),
    facts: { mentions: ["notes"] },
    note: "the model invents a field the user mentioned",
  },
  {
    schema: IT,
    name: "subtask-assignee-undeclared",
    kind: "undeclared-member",
    value: issueWithSubtasks,
    edit: rep('"title":"Fix it",', '"title":"Fix it","assignee":"li@example.com",'),
    facts: { path: "/subtasks/1", mentions: ["assignee"] },
    note: "a member that exists at the root, used in an item where it does not",
  },
  {
    schema: "send-notification-discriminated",
    name: "email-channel-body-undeclared",
    kind: "undeclared-member",
    value: { channel: { type: "email", to: "grace@example.com" }, message: "Hi" },
    edit: rep('"to":"grace@example.com",', '"to":"grace@example.com","body":"Hi",'),
    facts: { path: "/channel", mentions: ["body"] },
    note: "an email body inside the channel object",
  },
  {
    schema: "create-shipment-refs",
    name: "sender-email-undeclared",
    kind: "undeclared-member",
    value: {
      sender: { name: "Acme", address: { line1: "1 Main St", city: "Springfield", country: "US" } },
      recipient: { name: "Grace", address: { line1: "2 Rue X", city: "Paris", country: "FR" } },
      parcels: [{ weight_kg: 1.2 }],
    },
    edit: rep('"name":"Acme",', '"name":"Acme","email":"ship@acme.example",'),
    facts: { path: "/sender", mentions: ["email"] },
    note: "a plausible contact member the definition does not have",
  },
  {
    schema: "set-thermostat-numbers",
    name: "mode-undeclared",
    kind: "undeclared-member",
    value: { zone: "living", target_celsius: 21 },
    edit: rep('"zone":"living",', '"zone":"living","mode":"heat",'),
    facts: { mentions: ["mode"] },
    note: "a thermostat mode the tool does not take",
  },
  // ── wrong JSON type ──────────────────────────────────────────────────────
  {
    schema: IT,
    name: "milestone-as-string",
    kind: "type",
    value: issue,
    edit: rep('"milestone":{"state":"present","value":3}', '"milestone":{"state":"present","value":"3"}'),
    facts: { path: "/milestone", mentions: ["integer", '"3"'] },
    note: "a number quoted as a string",
  },
  {
    schema: "set-thermostat-numbers",
    name: "target-as-string",
    kind: "type",
    value: { zone: "living", target_celsius: 21.5 },
    edit: rep('"target_celsius":21.5', '"target_celsius":"21.5"'),
    facts: { path: "/target_celsius", mentions: ["number", '"21.5"'] },
    note: "a number quoted as a string",
  },
  {
    schema: UC,
    name: "credit-limit-fractional",
    kind: "type",
    value: customerAddress,
    edit: rep('"value":500000', '"value":5000.5'),
    facts: { path: "/credit_limit_cents", mentions: ["integer", "5000.5"] },
    note: "euros instead of cents",
  },
  {
    schema: EV,
    name: "attendees-as-strings",
    kind: "type",
    value: daily,
    edit: rep(
      '"attendees":{"state":"present","value":[{"email":"ana@example.com","optional":{"state":"absent"}},{"email":"li@example.com","optional":{"state":"present","value":true}}]}',
      '"attendees":{"state":"present","value":["ana@example.com","li@example.com"]}',
    ),
    facts: { path: "/attendees/0", mentions: ["object", "ana@example.com"] },
    note: "a list of addresses instead of attendee objects",
  },
  {
    schema: IT,
    name: "labels-as-string",
    kind: "type",
    value: issue,
    edit: rep('"labels":{"state":"present","value":["bug"]}', '"labels":{"state":"present","value":"bug"}'),
    facts: { path: "/labels", mentions: ["array", "bug"] },
    note: "one label written as a string, not a list",
  },
  {
    schema: "feature-flags-map-of-objects",
    name: "flag-enabled-as-string",
    kind: "type",
    value: { environment: "prod", flags: { new_checkout: { enabled: true } } },
    edit: rep('"enabled":true', '"enabled":"true"'),
    facts: { path: "/flags/new_checkout/enabled", mentions: ["boolean", '"true"'] },
    note: "a boolean quoted, inside a map value",
  },
  // ── enum ─────────────────────────────────────────────────────────────────
  {
    schema: IT,
    name: "priority-critical",
    kind: "enum",
    value: issue,
    edit: rep('"value":"high"', '"value":"critical"'),
    facts: { path: "/priority", mentions: ["critical", "low", "medium", "urgent"] },
    note: "a priority level from another tracker",
  },
  {
    schema: IT,
    name: "label-outside-enum",
    kind: "enum",
    value: issue,
    edit: rep('"value":["bug"]', '"value":["bug","regression"]'),
    facts: { path: "/labels/1", mentions: ["regression", "feature", "docs", "chore"] },
    note: "an enum inside an array item",
  },
  {
    schema: UC,
    name: "tax-status-vat",
    kind: "enum",
    value: customerAddress,
    edit: rep('"value":"exempt"', '"value":"vat"'),
    facts: { path: "/tax_status", mentions: ["vat", "taxable", "exempt", "reverse_charge"] },
    note: "a plausible tax status outside the list",
  },
  {
    schema: EV,
    name: "byday-three-letters",
    kind: "enum",
    value: weekly,
    edit: rep('"byDay":["MO","WE","FR"]', '"byDay":["MON","WED","FRI"]'),
    facts: { path: "/recurrence/byDay/0", mentions: ["MON", '"MO"', '"TU"', '"SU"'] },
    note: "three-letter day names instead of RFC 5545's two",
  },
  {
    schema: "log-settings-enums",
    name: "level-warning",
    kind: "enum",
    value: { level: "info" },
    edit: rep('"level":"info"', '"level":"warning"'),
    facts: { path: "/level", mentions: ["warning", '"warn"', "trace", "error"] },
    note: "warning for warn",
  },
  {
    schema: "create-invoice-array-objects",
    name: "currency-lowercase",
    kind: "enum",
    value: { customer_id: "c_1", currency: "EUR", line_items: [{ sku: "A", quantity: 1, unit_price: 10 }] },
    edit: rep('"value":"EUR"', '"value":"eur"'),
    facts: { path: "/currency", mentions: ['"eur"', '"USD"', '"EUR"'] },
    note: "case of a currency code",
  },
  {
    schema: "settings-control-required",
    name: "channel-teams",
    kind: "enum",
    value: {
      enabled: true,
      mode: "page",
      threshold: 90,
      label: "CPU",
      channels: ["email"],
      window: { start: "00:00:00Z", end: "23:59:59Z" },
    },
    edit: rep('"channels":["email"]', '"channels":["email","teams"]'),
    facts: { path: "/channels/1", mentions: ["teams", "slack", "sms"] },
    note: "an enum inside a required array",
  },
  // ── bounds ───────────────────────────────────────────────────────────────
  {
    schema: IT,
    name: "milestone-zero",
    kind: "bounds",
    value: issue,
    edit: rep('"milestone":{"state":"present","value":3}', '"milestone":{"state":"present","value":0}'),
    facts: { path: "/milestone", mentions: [atLeast(1), "0"] },
    note: "issue 15's example: milestones count from 1",
  },
  {
    schema: IT,
    name: "subtask-points-21",
    kind: "bounds",
    value: issueWithSubtasks,
    edit: rep('"points":{"state":"present","value":3}', '"points":{"state":"present","value":21}'),
    facts: { path: "/subtasks/1/points", mentions: [atMost(13), "21"] },
    note: "a maximum inside a nested array (Fibonacci points beyond the scale)",
  },
  {
    schema: "set-thermostat-numbers",
    name: "fan-speed-11",
    kind: "bounds",
    value: { zone: "living", target_celsius: 21, fan_speed: 10 },
    edit: rep('"fan_speed":{"state":"present","value":10}', '"fan_speed":{"state":"present","value":11}'),
    facts: { path: "/fan_speed", mentions: [atMost(10), "11"] },
    note: "one past the maximum",
  },
  {
    schema: "set-thermostat-numbers",
    name: "target-not-half-step",
    kind: "bounds",
    value: { zone: "living", target_celsius: 21.5 },
    edit: rep('"target_celsius":21.5', '"target_celsius":21.3'),
    facts: { path: "/target_celsius", mentions: [["multiple of 0.5", "multipleOf 0.5", "multipleOf: 0.5"], "21.3"] },
    note: "a temperature off the half-degree grid",
  },
  {
    schema: IT,
    name: "title-empty",
    kind: "bounds",
    value: issue,
    edit: rep('"title":"Login button does nothing"', '"title":""'),
    facts: {
      path: "/title",
      mentions: [["fewer than 1 character", "at least 1 character", "minLength 1", "minLength: 1", "empty"]],
    },
    note: "an empty title (minLength is relaxed on the wire, so the final validation catches it)",
  },
  {
    schema: UC,
    name: "name-too-long",
    kind: "bounds",
    value: customer,
    edit: rep(
      '"value":"Ana Lima"',
      '"value":"Ana Lima, head of procurement at Lima & Filhos Distribuição Alimentar Lda, Lisbon office (primary contact)"',
    ),
    facts: {
      path: "/name",
      mentions: [["more than 100 characters", "at most 100 characters", "maxLength 100", "maxLength: 100"], "Ana Lima"],
    },
    note: "a description stuffed into the name",
  },
  {
    schema: EV,
    name: "interval-zero",
    kind: "bounds",
    value: daily,
    edit: rep('"interval":{"state":"present","value":2}', '"interval":{"state":"present","value":0}'),
    facts: { path: "/recurrence/interval", mentions: [atLeast(1), "0"] },
    note: "interval 0 for 'no repeat gap', inside a union branch",
  },
  {
    schema: "search-flights-bfcl",
    name: "adults-twelve",
    kind: "bounds",
    value: { origin: "SFO", destination: "JFK", departure_date: "2026-07-04", passengers: { adults: 2 } },
    edit: rep('"adults":2', '"adults":12'),
    facts: { path: "/passengers/adults", mentions: [atMost(9), "12"] },
    note: "a group booking beyond the per-booking limit",
  },
  {
    schema: "create-invoice-array-objects",
    name: "line-items-empty",
    kind: "bounds",
    value: { customer_id: "c_1", line_items: [{ sku: "A", quantity: 1, unit_price: 10 }] },
    edit: rep(
      '"line_items":[{"sku":"A","description":{"state":"absent"},"quantity":1,"unit_price":10,"discount_pct":{"state":"absent"},"tax_exempt":{"state":"absent"}}]',
      '"line_items":[]',
    ),
    facts: {
      path: "/line_items",
      mentions: [["fewer than 1 item", "at least 1 item", "minItems 1", "minItems: 1", "empty"]],
    },
    note: "a draft invoice with nothing on it",
  },
  {
    schema: UC,
    name: "credit-limit-negative",
    kind: "bounds",
    value: customerAddress,
    edit: rep('"value":500000', '"value":-500'),
    facts: { path: "/credit_limit_cents", mentions: [atLeast(0), "-500"] },
    note: "a negative limit to mean 'owes us'",
  },
];
