"""Send N keep-alive GETs of one path to 127.0.0.1:PORT with an API key (bench/instructions/detail.sh)."""
import http.client, sys, time
port, path, key, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
conn = http.client.HTTPConnection("127.0.0.1", port)
started = time.time()
for _ in range(n):
    conn.request("GET", path, headers={"x-api-key": key})
    r = conn.getresponse()
    r.read()
    assert r.status == 200, r.status
print(f"{n} requests in {time.time()-started:.1f} s")
