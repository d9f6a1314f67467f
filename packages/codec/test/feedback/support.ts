/** A discriminated union the feedback tests share: a message goes by email or by SMS, each with its own rule on `to`. */
export const CHANNEL = {
  oneOf: [
    {
      type: "object",
      properties: { type: { const: "email" }, to: { type: "string", format: "email" } },
      required: ["type", "to"],
      additionalProperties: false,
    },
    {
      type: "object",
      properties: { type: { const: "sms" }, to: { type: "string", pattern: "^\\+[0-9]{7,15}$" } },
      required: ["type", "to"],
      additionalProperties: false,
    },
  ],
};
