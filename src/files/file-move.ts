/**
 * Moves an object to another key in the same bucket: R2's Workers API has no copy, so the body
 * streams from a get() into a put() of known length, then the source is deleted. The source is
 * deleted on failure too, so a failed move leaves neither key behind. The copy may take new custom
 * metadata.
 */
export async function moveObject(
  bucket: R2Bucket,
  from: R2Object,
  to: string,
  customMetadata = from.customMetadata,
): Promise<R2Object> {
  try {
    const source = await bucket.get(from.key, { onlyIf: { etagMatches: from.etag } });
    if (!source || !("body" in source)) throw new Error(`object ${from.key} changed before its move`);
    const { readable, writable } = new FixedLengthStream(source.size);
    const [moved] = await Promise.all([
      bucket.put(to, readable, {
        httpMetadata: source.httpMetadata,
        customMetadata,
      }),
      source.body.pipeTo(writable),
    ]);
    if (!moved) throw new Error(`put of ${to} refused`);
    return moved;
  } finally {
    await bucket.delete(from.key);
  }
}
