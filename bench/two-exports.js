export const twoExports = () => [];
