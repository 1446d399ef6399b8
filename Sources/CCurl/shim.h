#ifndef CARESYNC_CCURL_SHIM_H
#define CARESYNC_CCURL_SHIM_H
#include <curl/curl.h>

/// curl_global_init with CURL_GLOBAL_DEFAULT (a macro of macros).
static inline CURLcode caresync_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

// curl_easy_setopt and curl_easy_getinfo are variadic: one typed wrapper per argument type Swift passes.

/// Sets a `long` option (CURLOPT_TIMEOUT_MS, CURLOPT_FOLLOWLOCATION, …).
static inline CURLcode caresync_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets a string option (CURLOPT_URL, CURLOPT_PROTOCOLS_STR, …); libcurl copies the string.
static inline CURLcode caresync_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets a `curl_off_t` option (CURLOPT_POSTFIELDSIZE_LARGE).
static inline CURLcode caresync_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets a list option (CURLOPT_HTTPHEADER, CURLOPT_RESOLVE); the list must outlive the transfer.
static inline CURLcode caresync_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

/// Sets a pointer option (CURLOPT_XFERINFODATA, CURLOPT_WRITEDATA).
static inline CURLcode caresync_curl_setopt_pointer(CURL *handle, CURLoption option, void *pointer) {
    return curl_easy_setopt(handle, option, pointer);
}

/// Sets CURLOPT_WRITEFUNCTION.
static inline CURLcode caresync_curl_setopt_write(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

/// Sets CURLOPT_XFERINFOFUNCTION.
static inline CURLcode caresync_curl_setopt_xferinfo(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/// Reads a `long` piece of information (CURLINFO_RESPONSE_CODE).
static inline CURLcode caresync_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
#endif
