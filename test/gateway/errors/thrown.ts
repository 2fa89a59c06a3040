/** The error a request that must fail threw (the test fails if it answers instead). */
export async function thrown(run: () => Promise<unknown>): Promise<any> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected the request to fail');
}
