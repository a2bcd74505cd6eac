/** The exchange's REST error body (spec 7.1). */
export interface ErrorBody {
  readonly errors: readonly { readonly code: string; readonly message: string }[];
}

export function errorBody(code: string, message: string): ErrorBody {
  return { errors: [{ code, message }] };
}
