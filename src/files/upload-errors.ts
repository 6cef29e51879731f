import { Failure } from "../core/failures";

/** The form breaks the upload rules. */
export class InvalidUploadError extends Failure {
  readonly kind = "invalid";

  constructor(message: string) {
    super(message);
    this.name = "InvalidUploadError";
  }
}

/** The file is over MAX_UPLOAD_BYTES; the message names the way out (resumable uploads). */
export class UploadTooLargeError extends Failure {
  readonly kind = "too_large";

  constructor() {
    super("File too large: send larger files with the resumable upload API (POST /api/uploads)");
    this.name = "UploadTooLargeError";
  }
}

export const invalidUpload = (message: string) => new InvalidUploadError(message);
export const uploadTooLarge = () => new UploadTooLargeError();
