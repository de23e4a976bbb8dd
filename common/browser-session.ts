/** Browser mode's session, as both ends name it: the command that keeps one address across restarts. */
export const STABLE_TOKEN_COMMAND = 'gpu-fleet serve --port N --stable-token';
