# Bench run after the planter: says whether a planted .pth ran in it, and
# whether the user site-packages is on its path at all.
import os
import site
import sys

planted = os.environ.get("HALEBENCH_PLANTED", "0")
print("elapsed_ns=1")
print("check=planted:%s,usersite:%d" % (planted, int(bool(site.ENABLE_USER_SITE) and not sys.flags.no_user_site)))
