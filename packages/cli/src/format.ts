/** Small formatting helpers for human output. */

/** 12345 -> "12,345", whatever the user's locale: output must not vary by machine. */
export const grouped = (n: number): string => n.toLocaleString("en-US");

export const bytes = (n: number): string => `${grouped(n)} B`;

export const plural = (n: number, one: string, many = `${one}s`): string => `${grouped(n)} ${n === 1 ? one : many}`;
