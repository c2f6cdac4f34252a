#!/usr/bin/env python3
"""Check real REST responses against the served OpenAPI 3.1 document.

Usage: openapi_check.py OPENAPI.json RESPONSES_DIR

RESPONSES_DIR holds one pair per recorded response: NAME.meta (one line:
METHOD PATH-TEMPLATE STATUS, e.g. "GET /api/v1/servers/{name}/tools 200")
and NAME.json (the body as received). Every response must be declared for
its path, method and status, and its body must validate against the
declared schema.

The validator covers the JSON Schema subset the document uses: $ref (to
#/...), type (one or a list), const, enum, required, properties,
additionalProperties (false or a schema), items, allOf, minimum/maximum.
A keyword outside this subset is an error, so the check cannot pass by
ignoring what it does not understand. No network, no third-party module.
"""
import json
import os
import sys

KNOWN = {"$ref", "type", "const", "enum", "required", "properties",
         "additionalProperties", "items", "allOf", "minimum", "maximum",
         "description", "default"}


def resolve(doc, ref):
    if not ref.startswith("#/"):
        raise ValueError("unsupported $ref %r" % ref)
    node = doc
    for part in ref[2:].split("/"):
        node = node[part]
    return node


def type_ok(value, t):
    if t == "null":
        return value is None
    if t == "boolean":
        return isinstance(value, bool)
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t == "string":
        return isinstance(value, str)
    if t == "array":
        return isinstance(value, list)
    if t == "object":
        return isinstance(value, dict)
    raise ValueError("unknown type %r" % t)


def validate(doc, schema, value, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError("%s: schema keywords outside the checked subset: %s"
                         % (path, sorted(unknown)))
    if "$ref" in schema:
        validate(doc, resolve(doc, schema["$ref"]), value, path, errors)
    for sub in schema.get("allOf", []):
        validate(doc, sub, value, path, errors)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(type_ok(value, t) for t in types):
            errors.append("%s: expected %s, got %r" % (path, "|".join(types), value))
            return
    if "const" in schema and value != schema["const"]:
        errors.append("%s: expected %r, got %r" % (path, schema["const"], value))
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %r not in %r" % (path, value, schema["enum"]))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append("%s: %r below %r" % (path, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            errors.append("%s: %r above %r" % (path, value, schema["maximum"]))
    if isinstance(value, dict):
        for name in schema.get("required", []):
            if name not in value:
                errors.append("%s: missing required member %r" % (path, name))
        props = schema.get("properties", {})
        for name, sub in props.items():
            if name in value:
                validate(doc, sub, value[name], "%s.%s" % (path, name), errors)
        extra = schema.get("additionalProperties")
        if extra is not None:
            for name in value:
                if name in props:
                    continue
                if extra is False:
                    errors.append("%s: unexpected member %r" % (path, name))
                elif isinstance(extra, dict):
                    validate(doc, extra, value[name], "%s.%s" % (path, name), errors)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            validate(doc, schema["items"], item, "%s[%d]" % (path, i), errors)


def main():
    doc = json.load(open(sys.argv[1], encoding="utf-8"))
    if doc.get("openapi") != "3.1.0":
        print("not an OpenAPI 3.1.0 document")
        return 1
    folder = sys.argv[2]
    checked, failures = 0, []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".meta"):
            continue
        base = name[:-5]
        method, template, status = open(os.path.join(folder, name)).read().split()
        op = doc["paths"].get(template, {}).get(method.lower())
        if status == "405" and op is None and template in doc["paths"]:
            # A method the path does not take: the document cannot list
            # it under the path, so the answer must be the common Error.
            op = {"responses": {"405": {"$ref": "#/components/responses/Error"}}}
        if op is None:
            failures.append("%s: %s %s is not in the document" % (base, method, template))
            continue
        resp = op["responses"].get(status)
        if resp is None:
            failures.append("%s: status %s of %s %s is not declared" % (base, status, method,
                                                                        template))
            continue
        if "$ref" in resp:
            resp = resolve(doc, resp["$ref"])
        schema = resp["content"]["application/json"]["schema"]
        body = json.load(open(os.path.join(folder, base + ".json"), encoding="utf-8"))
        errors = []
        validate(doc, schema, body, "body", errors)
        failures += ["%s (%s %s %s): %s" % (base, method, template, status, e) for e in errors]
        checked += 1
    # Every path and method of the document must have been exercised.
    seen = set()
    for name in os.listdir(folder):
        if name.endswith(".meta"):
            method, template, status = open(os.path.join(folder, name)).read().split()
            if status != "405":
                seen.add((method.lower(), template))
    for template, ops in doc["paths"].items():
        for method in ops:
            if (method, template) not in seen:
                failures.append("no recorded response for %s %s" % (method.upper(), template))
    for f in failures:
        print("FAIL:", f)
    print("openapi_check: %d responses checked, %d failures" % (checked, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
