"""Records every request the published GunSpec Python client sends, as it sends it.

Runs each public method of the sync client (`gunspec.GunSpec`) against a recording transport
(nothing leaves the process) and writes what was sent: the method, the path template, the query
keys with the literal values the client fixes (such as format=json) and whether a body went. The
Armory node reads the result (src/http/self_check/gunspec_calls.json) to run the client's calls
in process for GET /v1/sdk/verification.

    python3 -m venv /tmp/gs && /tmp/gs/bin/pip install gunspec==0.9.0
    /tmp/gs/bin/python tools/gunspec_calls.py > src/http/self_check/gunspec_calls.json

An argument the caller chooses is sent as a marker, {name}, so the path and query say which
argument went where; the node fills each marker with a record of its live catalog.
"""

import inspect
import json
import sys
import typing
from urllib.parse import parse_qsl, unquote, urlsplit

import gunspec
import httpx

ENVELOPE = {
    "success": True,
    "data": [],
    "pagination": {"page": 1, "perPage": 1, "total": 0, "totalPages": 0},
}


def marker(name):
    return "{" + name + "}"


def argument(name, annotation):
    """A value for a required argument: a marker, a list of markers, or a dict of the
    TypedDict's required keys as markers."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        options = [a for a in typing.get_args(annotation) if a is not type(None)]
        return argument(name, options[0])
    if origin in (list, typing.List) or annotation in (list,):
        return [marker(name)]
    if origin in (dict, typing.Dict) or annotation is dict:
        return {}
    required = getattr(annotation, "__required_keys__", None)
    if required is not None:
        return {key: marker(key) for key in sorted(required)}
    if annotation is int:
        return 1
    return marker(name)


def annotation_of(method, parameter):
    """The parameter's annotation, evaluated in its module (the return annotations name types
    imported only for type checking, so the method's hints cannot be evaluated whole)."""
    annotation = parameter.annotation
    if not isinstance(annotation, str):
        return annotation
    scope = dict(vars(sys.modules[method.__module__]))
    scope.update(vars(typing))
    try:
        return eval(annotation, scope)  # the client's own annotation text
    except NameError:
        return str


def main():
    sent = []

    def record(request):
        sent.append(request)
        return httpx.Response(200, json=ENVELOPE, headers={"content-type": "application/json"})

    client = gunspec.GunSpec(api_key="gs_recording", base_url="http://127.0.0.1:1")
    inner = client._client
    inner._client = httpx.Client(base_url=inner._client.base_url, transport=httpx.MockTransport(record))
    calls = []
    for resource_name, resource in sorted(vars(client).items()):
        if resource_name.startswith("_"):
            continue
        for method_name, method in sorted(inspect.getmembers(resource, inspect.ismethod)):
            if method_name.startswith("_") or method_name.endswith("_auto_paging"):
                continue
            arguments = {}
            for name, parameter in inspect.signature(method).parameters.items():
                if parameter.default is inspect.Parameter.empty:
                    arguments[name] = argument(name, annotation_of(method, parameter))
            sent.clear()
            try:
                method(**arguments)
            except Exception:  # the recorded answer does not fit every method; the request went
                pass
            for request in sent[:1]:
                url = urlsplit(str(request.url))
                query = {k: v for k, v in parse_qsl(url.query, keep_blank_values=True)}
                calls.append(
                    {
                        "call": f"{resource_name}.{method_name}",
                        "method": request.method,
                        "path": unquote(url.path),
                        "query": query,
                        "body": bool(request.content),
                    }
                )
    json.dump(
        {"client": "gunspec", "version": gunspec.__version__, "calls": calls},
        sys.stdout,
        indent=1,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
