/**
 * What an input none of whose lines is an entry seems to be, by its first such line, and how to
 * give it to logtype: a saved search result or a JSON array, printed over several lines or as
 * one document, holds entries logtype reads one a line. Undefined when it is nothing known.
 */
export function notLogsHint(firstLine: string): string | undefined {
  const line = firstLine.trim();
  if (/^[[{]$/.test(line)) {
    return "it starts as JSON printed over several lines (a saved search result, an array): give logtype one document a line, as jq -c writes them: jq -c '.hits.hits[]' FILE | logtype (an Elasticsearch or OpenSearch search), jq -c '.[]' FILE | logtype (an array)";
  }
  if (/^\[\s*[{"]/.test(line)) return "it is a JSON array: give logtype its members one a line: jq -c '.[]' FILE | logtype";
  if (/^\{\s*"took"\s*:|"hits"\s*:\s*\{\s*"(?:total|max_score|hits)"/.test(line)) {
    return "it is an Elasticsearch or OpenSearch search response: give logtype its hits one a line: jq -c '.hits.hits[]' FILE | logtype";
  }
  return undefined;
}
