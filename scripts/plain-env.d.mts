export function plainEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
