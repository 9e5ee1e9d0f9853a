/** The subset of the Khronos validator's API the asset tests use (the package ships no types). */
declare module 'gltf-validator' {
  interface ValidationMessage {
    readonly code: string;
    readonly message: string;
    readonly severity: number;
    readonly pointer?: string;
  }
  interface ValidationReport {
    readonly issues: { readonly numErrors: number; readonly numWarnings: number; readonly messages: readonly ValidationMessage[] };
  }
  export function validateBytes(data: Uint8Array, options?: { maxIssues?: number; format?: 'glb' | 'gltf' }): Promise<ValidationReport>;
  const validator: { validateBytes: typeof validateBytes };
  export default validator;
}
