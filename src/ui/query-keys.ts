/** The window's own query keys that more than one module names (the opening fills them: first-screen.ts). */
export const SESSION_KEY = ['session'] as const;
export const STATUS_KEY = ['status'] as const;
