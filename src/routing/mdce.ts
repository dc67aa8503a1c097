// Placeholder barrel; its owner fills it in.
export {};
