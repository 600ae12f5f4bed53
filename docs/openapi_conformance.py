"""Checks recorded API exchanges against docs/openapi.yaml (OpenAPI 3.1).

Usage: python3 openapi_conformance.py SPEC.yaml EXCHANGES.json

EXCHANGES is a list of {"method", "template" (documented path), "uri", "status",
"contentType", "body"}. Fails (exit 1, one line per problem) when a documented operation was
not exercised, a status or content type is not documented for the operation, or a JSON body
does not validate against the documented schema. Needs Debian's python3-yaml and
python3-jsonschema.
"""
import json
import sys

import jsonschema
import yaml

JSON_TYPES = {"application/json", "application/geo+json"}
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def main():
    spec = yaml.safe_load(open(sys.argv[1]))
    exchanges = json.load(open(sys.argv[2]))
    resolver = jsonschema.RefResolver("", spec)
    problems = []

    def resolve(node):
        while isinstance(node, dict) and "$ref" in node and len(node) == 1:
            node = resolver.resolve(node["$ref"])[1]
        return node

    exercised = set()
    for x in exchanges:
        where = "%s %s → %d" % (x["method"], x["uri"], x["status"])
        item = spec["paths"].get(x["template"])
        operation = item.get(x["method"].lower()) if item else None
        if operation is None:
            problems.append("%s: %s %s is not documented" % (where, x["method"], x["template"]))
            continue
        exercised.add((x["template"], x["method"].lower()))
        response = operation["responses"].get(str(x["status"]))
        if response is None:
            problems.append("%s: status %d is not documented" % (where, x["status"]))
            continue
        response = resolve(response)
        content = response.get("content", {})
        if not x["body"]:
            if content and x["status"] != 204:
                problems.append("%s: empty body, documented %s" % (where, sorted(content)))
            continue
        media = (x["contentType"] or "").split(";")[0].strip()
        if media not in content:
            problems.append("%s: content type %r is not documented (%s)" % (where, media, sorted(content)))
            continue
        if media in JSON_TYPES:
            try:
                body = json.loads(x["body"])
            except ValueError as error:
                problems.append("%s: body is not JSON: %s" % (where, error))
                continue
            schema = content[media].get("schema", {})
            validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
            for error in validator.iter_errors(body):
                path = "/".join(str(p) for p in error.absolute_path)
                problems.append("%s: /%s: %s" % (where, path, error.message))

    for path, item in spec["paths"].items():
        for method in item:
            if method in METHODS and (path, method) not in exercised:
                problems.append("%s %s is documented but was not exercised" % (method.upper(), path))

    for problem in problems:
        print(problem)
    print("%d exchanges, %d operations, %d problems" % (len(exchanges), len(exercised), len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
