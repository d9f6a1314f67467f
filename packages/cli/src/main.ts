export async function main(_argv: readonly string[]): Promise<number> {
  return 0;
}
