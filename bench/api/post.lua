-- wrk script: POST the body in $BODY_FILE to $TARGET_PATH with $AUTH as the Authorization header.
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
local body = f:read("*a")
f:close()
wrk.method = "POST"
wrk.path = os.getenv("TARGET_PATH")
wrk.body = body
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = os.getenv("AUTH")
