/** Names that are keys of Object.prototype: valid kubeconfig context names (and `constructor` a valid node name). */
export const PROTO_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
];
