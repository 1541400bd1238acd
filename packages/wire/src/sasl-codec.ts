// SASL tokens tunnelled through ZooKeeper's own protocol (op 102, `sasl`), exchanged after the
// handshake and before anything else on a connection.
//
// Request: GetSASLRequest {buffer token}. Reply: SetSASLResponse {buffer token}; the server
// sends a null token (length -1) with its failure codes and when it has nothing to say.
import { Buffer } from 'node:buffer';
import { JuteReader } from './jute-reader.js';
import { JuteWriter } from './jute-writer.js';
import { OpCode } from './op-code.js';
import { encodeRequest } from './request-frame.js';

/** The framed `sasl` request carrying `token` (an empty token is a token of length 0). */
export function encodeSaslRequest(xid: number, token: Uint8Array): Buffer {
  const body = new JuteWriter(token.length + 4).buffer(token).toBuffer();
  return encodeRequest(xid, OpCode.sasl, body);
}

/** The server's token from a SetSASLResponse body; a null or missing one is empty. */
export function decodeSaslResponse(body: Buffer): Buffer {
  if (body.length < 4) return Buffer.alloc(0);
  return new JuteReader(body).buffer() ?? Buffer.alloc(0);
}
