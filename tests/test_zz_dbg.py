import collections, sys
sys.path.insert(0, "/work/main")
from tests.test_schemathesis import schema, app
from hypothesis import settings
from flask import request
counts = collections.Counter()
@app.after_request
def rec(resp):
    counts[(request.method, request.path[:40], resp.status_code)] += 1
    return resp

@schema.parametrize()
@settings(deadline=None)
def test_x(case):
    case.call_and_validate()

def test_zz_report():
    for k, v in sorted(counts.items(), key=str): print(k, v)
    print("TOTAL", sum(counts.values()))
