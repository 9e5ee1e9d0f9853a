/** A response's status, its body parsed as JSON (undefined when empty) and the raw text, for assertions. */
export async function json(res: Response): Promise<{ status: number; body: any; text: string }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}
