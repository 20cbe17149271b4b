// Command keyops-ceiling is the native-client ceiling of the FUSE metadata rows in docs/benchmarks.md ("FUSE
// metadata operations"): the OSS requests a gateway's `mv DIR DIR2` and `rm DIR/*` make, sent by Alibaba's Go SDK
// (alibabacloud-oss-go-sdk-v2) from one process to the same endpoint in the same run, with this process's CPU.
//
// Operations (one line each: op, objects, wall seconds, CPU seconds user+sys of this process, and the requests):
//
//	rename  ListObjectsV2 of -src one page (1,000 keys) at a time; CopyObject of each key to -dst, -parallel in
//	        flight; one DeleteMultipleObjects (quiet) per page once its copies are done: what the gateway's
//	        DirectoryRenamer sends for a directory rename (SEMANTICS.md, rename).
//	delete  ListObjectsV2 of -src (not timed: `rm` of a listed directory knows its names), then one DeleteObject per
//	        key, one at a time: what `rm DIR/*` makes the gateway send (an unlink is one DeleteObject).
//	stat    ListObjectsV2 of -src with delimiter "/" one page at a time, and a HeadObject of each object listed,
//	        -parallel in flight (20: ossfs's multireq_max): what a cold `ls -l` of a directory costs the gateway in its
//	        default metadata model (SEMANTICS.md, Listings).
//
// Usage: keyops-ceiling -endpoint http://127.0.0.1:PORT -bucket probe -ak ak -sk sk -op rename -src mv/ -dst mv2/
// (V4 signing, region cn-hangzhou, path-style addressing, as the in-tree emulator takes them).
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/aliyun/alibabacloud-oss-go-sdk-v2/oss"
	"github.com/aliyun/alibabacloud-oss-go-sdk-v2/oss/credentials"
)

func main() {
	endpoint := flag.String("endpoint", "", "http://HOST:PORT of the OSS endpoint")
	bucket := flag.String("bucket", "probe", "bucket")
	ak := flag.String("ak", "ak", "AccessKey ID")
	sk := flag.String("sk", "sk", "AccessKey secret")
	op := flag.String("op", "rename", "rename, delete or stat")
	src := flag.String("src", "", "source prefix, ending in /")
	dst := flag.String("dst", "", "destination prefix for rename, ending in /")
	parallel := flag.Int("parallel", 32, "CopyObject (rename) or HeadObject (stat) requests in flight")
	flag.Parse()
	if *endpoint == "" || *src == "" || (*op == "rename" && *dst == "") {
		fmt.Fprintln(os.Stderr, "keyops-ceiling: -endpoint, -src and (for rename) -dst are required")
		os.Exit(2)
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: 2 * *parallel, MaxIdleConnsPerHost: 2 * *parallel}}
	cfg := oss.LoadDefaultConfig().
		WithCredentialsProvider(credentials.NewStaticCredentialsProvider(*ak, *sk)).
		WithRegion("cn-hangzhou").WithEndpoint(*endpoint).WithUsePathStyle(true).WithDisableSSL(true).
		WithHttpClient(hc)
	c := oss.NewClient(cfg)
	ctx := context.Background()
	var err error
	switch *op {
	case "rename":
		err = rename(ctx, c, *bucket, *src, *dst, *parallel)
	case "delete":
		err = deleteEach(ctx, c, *bucket, *src)
	case "stat":
		err = statEach(ctx, c, *bucket, *src, *parallel)
	default:
		err = fmt.Errorf("unknown -op %q (rename, delete, stat)", *op)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "keyops-ceiling:", err)
		os.Exit(1)
	}
}

// cpu is this process's user+sys CPU seconds so far.
func cpu() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// eachPage lists src one ListObjectsV2 page (1,000 keys) at a time, with delimiter "/" when dirOnly, and hands each
// page's object keys to fn before listing the next; it returns the pages listed.
func eachPage(ctx context.Context, c *oss.Client, bucket, src string, dirOnly bool, fn func(keys []string) error) (int, error) {
	req := &oss.ListObjectsV2Request{Bucket: oss.Ptr(bucket), Prefix: oss.Ptr(src), MaxKeys: 1000}
	if dirOnly {
		req.Delimiter = oss.Ptr("/")
	}
	pages := 0
	for p := c.NewListObjectsV2Paginator(req); p.HasNext(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			return pages, fmt.Errorf("ListObjectsV2 %s: %w", src, err)
		}
		pages++
		keys := make([]string, 0, len(page.Contents))
		for _, o := range page.Contents {
			keys = append(keys, *o.Key)
		}
		if err := fn(keys); err != nil {
			return pages, err
		}
	}
	return pages, nil
}

// rename moves every key under src to dst one listing page at a time, as the gateway's DirectoryRenamer does.
func rename(ctx context.Context, c *oss.Client, bucket, src, dst string, parallel int) error {
	t0, c0 := time.Now(), cpu()
	var copies, deletes int
	var failed atomic.Int64
	var firstErr atomic.Value
	slots := make(chan struct{}, parallel)
	lists, err := eachPage(ctx, c, bucket, src, false, func(page []string) error {
		var wg sync.WaitGroup
		keys := make([]oss.DeleteObject, 0, len(page))
		for _, key := range page {
			keys = append(keys, oss.DeleteObject{Key: oss.Ptr(key)})
			slots <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-slots; wg.Done() }()
				_, err := c.CopyObject(ctx, &oss.CopyObjectRequest{Bucket: oss.Ptr(bucket),
					Key: oss.Ptr(dst + strings.TrimPrefix(key, src)), SourceKey: oss.Ptr(key)})
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err)
				}
			}()
		}
		wg.Wait()
		copies += len(keys)
		if failed.Load() > 0 {
			return fmt.Errorf("CopyObject: %d failed, first: %v", failed.Load(), firstErr.Load())
		}
		if len(keys) == 0 {
			return nil
		}
		if _, err := c.DeleteMultipleObjects(ctx, &oss.DeleteMultipleObjectsRequest{Bucket: oss.Ptr(bucket),
			Delete: &oss.Delete{Objects: keys, Quiet: true}}); err != nil {
			return fmt.Errorf("DeleteMultipleObjects: %w", err)
		}
		deletes++
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Printf("rename %d objects: %.3f s, %.3f CPU-s; requests: ListObjectsV2 %d, CopyObject %d, "+
		"DeleteMultipleObjects %d\n", copies, time.Since(t0).Seconds(), cpu()-c0, lists, copies, deletes)
	return nil
}

// deleteEach lists src (not timed), then deletes its keys one DeleteObject at a time, as `rm DIR/*` does.
func deleteEach(ctx context.Context, c *oss.Client, bucket, src string) error {
	var keys []string
	if _, err := eachPage(ctx, c, bucket, src, false, func(page []string) error {
		keys = append(keys, page...)
		return nil
	}); err != nil {
		return err
	}
	t0, c0 := time.Now(), cpu()
	for _, k := range keys {
		if _, err := c.DeleteObject(ctx, &oss.DeleteObjectRequest{Bucket: oss.Ptr(bucket), Key: oss.Ptr(k)}); err != nil {
			return fmt.Errorf("DeleteObject %s: %w", k, err)
		}
	}
	fmt.Printf("delete %d objects: %.3f s, %.3f CPU-s; requests: DeleteObject %d\n", len(keys),
		time.Since(t0).Seconds(), cpu()-c0, len(keys))
	return nil
}

// statEach lists src as a directory (delimiter "/") and sends a HeadObject for every object listed, parallel in
// flight, each page's HEADs started as soon as the page is parsed.
func statEach(ctx context.Context, c *oss.Client, bucket, src string, parallel int) error {
	t0, c0 := time.Now(), cpu()
	var heads int
	var failed atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallel)
	lists, err := eachPage(ctx, c, bucket, src, true, func(page []string) error {
		for _, key := range page {
			heads++
			slots <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-slots; wg.Done() }()
				if _, err := c.HeadObject(ctx, &oss.HeadObjectRequest{Bucket: oss.Ptr(bucket), Key: oss.Ptr(key)}); err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err)
				}
			}()
		}
		return nil
	})
	if err != nil {
		return err
	}
	wg.Wait()
	if failed.Load() > 0 {
		return fmt.Errorf("HeadObject: %d failed, first: %v", failed.Load(), firstErr.Load())
	}
	fmt.Printf("stat %d objects: %.3f s, %.3f CPU-s; requests: ListObjectsV2 %d, HeadObject %d\n", heads,
		time.Since(t0).Seconds(), cpu()-c0, lists, heads)
	return nil
}
