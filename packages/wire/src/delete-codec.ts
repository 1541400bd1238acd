// The delete request. Request: DeleteRequest {ustring path, int version}; the reply has no body.
import { JuteWriter } from './jute-writer.js';

/** The body of delete; `version` -1 matches any version. */
export function encodeDelete(path: string, version: number): Buffer {
  return new JuteWriter(path.length * 3 + 8).string(path).int(version).toBuffer();
}
